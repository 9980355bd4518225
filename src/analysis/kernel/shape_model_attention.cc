// Scaled-dot-product attention shape models, TraceLens' SDPA definitions: Q [B, H, L, E],
// K [B, H_kv, S, E], V [B, H_kv, S, Ev]; FLOPs = 2 B H L S E (Q K^T) + 2 B H L S Ev (P V), halved
// when causal, softmax not counted; bytes = Q + K + V + O elements (a fused kernel never writes
// the L x S scores). Forward ops only.
#include <string>

#include "analysis/kernel/shape_model_ops.h"

namespace gpuperf::analysis::shape {
namespace {

constexpr int kNone = -1;

// Where the arguments of an attention op sit.
struct AttentionLayout {
  std::string_view name;
  bool heads_first;  // Q is [B, H, L, E]; otherwise [B, L, H, E]
  int causal;        // the argument that says causal
  bool mask_type;    // `causal` is an int custom_mask_type (0: none, 1 and 2: causal), not a bool
  int cu_seqlens;    // packed variable-length batches: modelled only when this tensor is absent
  std::array<int, 2> windows;  // sliding-window sizes: modelled only when absent or -1
};

constexpr std::array<AttentionLayout, 6> kAttentionLayouts = {{
    // aten::scaled_dot_product_attention(query, key, value, attn_mask?, dropout_p, is_causal,
    //                                    scale?, enable_gqa)
    {"aten::scaled_dot_product_attention", true, 5, false, kNone, {kNone, kNone}},
    // aten::_scaled_dot_product_flash_attention(query, key, value, dropout_p, is_causal,
    //                                           return_debug_mask, scale?)
    {"aten::_scaled_dot_product_flash_attention", true, 4, false, kNone, {kNone, kNone}},
    // aten::_scaled_dot_product_efficient_attention(query, key, value, attn_bias?,
    //                                               compute_log_sumexp, dropout_p, is_causal,
    //                                               scale?)
    {"aten::_scaled_dot_product_efficient_attention", true, 6, false, kNone, {kNone, kNone}},
    // aten::_scaled_dot_product_cudnn_attention(query, key, value, attn_bias?, compute_log_sumexp,
    //                                           dropout_p, is_causal, return_debug_mask, scale?)
    {"aten::_scaled_dot_product_cudnn_attention", true, 6, false, kNone, {kNone, kNone}},
    // aten::_flash_attention_forward(query, key, value, cum_seq_q?, cum_seq_k?, max_q, max_k,
    //     dropout_p, is_causal, return_debug_mask, scale?, window_size_left?, window_size_right?,
    //     seqused_k?, alibi_slopes?): [B, L, H, E], the op that launches the flash kernel.
    {"aten::_flash_attention_forward", false, 8, false, 3, {11, 12}},
    // aten::_efficient_attention_forward(query, key, value, bias?, cu_seqlens_q?, cu_seqlens_k?,
    //     max_seqlen_q?, max_seqlen_k?, dropout_p, custom_mask_type, compute_log_sumexp, scale?,
    //     seqlen_k?, window_size?): [B, L, H, E].
    {"aten::_efficient_attention_forward", false, 9, true, 4, {13, kNone}},
}};

std::optional<bool> Causal(const AttentionLayout& l, const Args& a) {
  auto text = a.Concrete(static_cast<std::size_t>(l.causal));
  if (!text)
    return std::nullopt;
  if (!l.mask_type)
    return ParseBool(*text);
  Int mask = ParseInt(*text);
  if (!mask || *mask > 2)
    return std::nullopt;
  return *mask != 0;
}

// Sliding windows and packed batches shrink or reshape the work: not modelled.
bool Unsupported(const AttentionLayout& l, const Args& a) {
  if (l.cu_seqlens != kNone) {
    const Dims* cu = a.Tensor(static_cast<std::size_t>(l.cu_seqlens));
    if (!cu || !cu->empty())
      return true;
  }
  for (int window : l.windows) {
    if (window == kNone)
      continue;
    auto text = a.Concrete(static_cast<std::size_t>(window));
    if (!text || (!text->empty() && *text != "None" && *text != "-1"))
      return true;
  }
  return false;
}

std::optional<OpWork> Attention(const AttentionLayout& l, const Args& a) {
  const Dims* q = a.Tensor(0);
  const Dims* k = a.Tensor(1);
  const Dims* v = a.Tensor(2);
  const FloatType* type = FindFloatType(a.Type(0));
  if (!q || !k || !v || q->size() != 4 || k->size() != 4 || v->size() != 4 || !type ||
      a.Type(1) != a.Type(0) || a.Type(2) != a.Type(0) || Unsupported(l, a))
    return std::nullopt;
  auto causal = Causal(l, a);
  std::size_t h_at = l.heads_first ? 1 : 2;
  std::size_t n_at = l.heads_first ? 2 : 1;
  std::int64_t b = (*q)[0], h = (*q)[h_at], len_q = (*q)[n_at], e = (*q)[3];
  std::int64_t h_kv = (*k)[h_at], len_kv = (*k)[n_at], ev = (*v)[3];
  // K and V agree; Q and K share E; grouped-query attention: H a multiple of H_kv.
  if (!causal || (*k)[0] != b || (*v)[0] != b || (*v)[h_at] != h_kv || (*v)[n_at] != len_kv ||
      (*k)[3] != e || h_kv < 1 || h % h_kv != 0)
    return std::nullopt;
  // TraceLens halves causal work only for a square score matrix (L == S) and rejects the rest.
  if (*causal && len_q != len_kv)
    return std::nullopt;
  Int pairs = Mul(Mul(Mul(b, h), len_q), len_kv);  // B H L S query-key pairs
  Int flops = Mul(Mul(*causal ? 1 : 2, pairs), Add(e, ev));
  Int q_o = Mul(Mul(Mul(b, h), len_q), Add(e, ev));      // Q read, O written
  Int k_v = Mul(Mul(Mul(b, h_kv), len_kv), Add(e, ev));  // K and V read
  Int bytes = Mul(Add(q_o, k_v), type->bytes);
  Int out_elements = Mul(Mul(Mul(b, h), len_q), ev);
  if (!flops || !bytes || !out_elements)
    return std::nullopt;
  return MatrixWork(ShapeOpKind::kAttention, *type, *out_elements, *flops, *bytes);
}

}  // namespace

std::optional<OpWork> ModelAttention(std::string_view name, const Args& a) {
  for (const AttentionLayout& layout : kAttentionLayouts) {
    if (layout.name == name)
      return Attention(layout, a);
  }
  return std::nullopt;
}

}  // namespace gpuperf::analysis::shape
