// Shape models of scaled-dot-product attention by hand (causal and not, grouped-query, the
// [B, L, H, E] layout of the ops that launch the kernels), what is not modelled, and the H100
// ViT / Qwen traces of the corpus: their patch convolution and flash attention get modelled work
// on the right kernels.
#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analysis/core/correlation.h"
#include "analysis/kernel/shape_model.h"
#include "corpus.h"
#include "shape_model_helpers.h"

namespace {

namespace model = gpuperf::model;
using gpuperf::analysis::OpWork;
using gpuperf::analysis::ShapeOpKind;
using gpuperf::testing::Modeled;
using gpuperf::testing::ModelWork;

// aten::_flash_attention_forward(query, key, value, cum_seq_q, cum_seq_k, max_q, max_k,
// dropout_p, is_causal, return_debug_mask, scale, window_size_left, window_size_right, seqused_k,
// alibi_slopes), Q/K/V [B, L, H, E] in fp16.
std::string FlashDims(const std::string& qkv, const std::string& cum_seq_q = "[]") {
  return "[" + qkv + "," + qkv + "," + qkv + "," + cum_seq_q + ",[],[],[],[],[],[],[],[],[],[],[]]";
}
const std::string kFlashTypes =
    R"(["c10::Half","c10::Half","c10::Half","","","Scalar","Scalar","Scalar","Scalar","Scalar","Scalar","","","",""])";
std::string FlashConcrete(const std::string& causal, const std::string& window_left = "") {
  return R"(["", "", "", "", "", "8", "8", "0.", ")" + causal + R"(", "False", "0.25", ")" +
         window_left + R"(", "", "", ""])";
}

}  // namespace

TEST_CASE("shape: scaled-dot-product attention by hand, causal and not", "[shape]") {
  // _scaled_dot_product_flash_attention(Q [2,4,8,16], K [2,4,8,16], V [2,4,8,32]) bf16, not
  // causal: 2*B*H*L*S = 2*2*4*8*8 = 1024; FLOPs = 1024*16 (Q K^T) + 1024*32 (P V) = 49152;
  // bytes = (Q 1024 + K 1024 + V 2048 + O 2*4*8*32 = 2048) * 2 = 12288.
  OpWork sdpa = ModelWork(
      "aten::_scaled_dot_product_flash_attention",
      "[[2,4,8,16],[2,4,8,16],[2,4,8,32],[],[],[],[]]",
      R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16","Scalar","Scalar","Scalar","Scalar"])",
      R"(["", "", "", "0.", "False", "False", "0.25"])");
  CHECK(sdpa.kind == ShapeOpKind::kAttention);
  CHECK(sdpa.elements == 2048);
  CHECK(sdpa.flops == 49152);
  CHECK(sdpa.bytes == 12288);
  CHECK(sdpa.precision == model::Precision::kBf16);
  CHECK(sdpa.unit == model::MathUnit::kTensor);

  // _flash_attention_forward, [B, L, H, E] = [2, 8, 4, 16] fp16, causal: the full work would be
  // 2*2*4*8*8*(16 + 16) = 32768, causal halves it (L == S): 16384;
  // bytes = 4 tensors * 1024 * 2 = 8192 (causal reads and writes them all).
  OpWork causal = ModelWork("aten::_flash_attention_forward",
                            FlashDims("[2,8,4,16]"),
                            kFlashTypes,
                            FlashConcrete("True"));
  CHECK(causal.flops == 16384);
  CHECK(causal.bytes == 8192);
  CHECK(causal.precision == model::Precision::kFp16);
  OpWork full = ModelWork("aten::_flash_attention_forward",
                          FlashDims("[2,8,4,16]"),
                          kFlashTypes,
                          FlashConcrete("False", "-1"));
  CHECK(full.flops == 32768);

  // Grouped-query scaled_dot_product_attention(Q [1,8,4,8], K/V [1,2,6,8], enable_gqa) fp32:
  // FLOPs = 2*1*8*4*6*(8 + 8) = 6144; bytes = (256 + 96 + 96 + 256) * 4 = 2816; fp32 vector.
  OpWork gqa = ModelWork("aten::scaled_dot_product_attention",
                         "[[1,8,4,8],[1,2,6,8],[1,2,6,8],[],[],[],[],[]]",
                         R"(["float","float","float","","Scalar","Scalar","","Scalar"])",
                         R"(["", "", "", "", "0.", "False", "", "True"])");
  CHECK(gqa.flops == 6144);
  CHECK(gqa.bytes == 2816);
  CHECK(gqa.precision == model::Precision::kFp32);
  CHECK(gqa.unit == model::MathUnit::kVector);

  // _efficient_attention_forward, custom_mask_type 1 (causal from the top left), [B, L, H, E] =
  // [1, 4, 2, 8] bf16: 2*1*2*4*4*(8 + 8) / 2 = 512.
  const std::string efficient_dims =
      "[[1,4,2,8],[1,4,2,8],[1,4,2,8],[],[],[],[],[],[],[],[],[],[],[]]";
  const std::string efficient_types =
      R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16","","","","","","Scalar","Scalar","Scalar","","",""])";
  auto efficient = [&](const std::string& mask) {
    return R"(["", "", "", "", "", "", "", "", "0.", ")" + mask + R"(", "True", "", "", ""])";
  };
  CHECK(ModelWork(
            "aten::_efficient_attention_forward", efficient_dims, efficient_types, efficient("1"))
            .flops == 512);
  CHECK(ModelWork(
            "aten::_efficient_attention_forward", efficient_dims, efficient_types, efficient("0"))
            .flops == 1024);
  CHECK_FALSE(Modeled(
      "aten::_efficient_attention_forward", efficient_dims, efficient_types, efficient("7")));
}

TEST_CASE("shape: attention the model cannot describe is not modelled", "[shape]") {
  const std::string dims = "[[2,4,8,16],[2,4,8,16],[2,4,8,16],[],[],[],[]]";
  const std::string types =
      R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16","Scalar","Scalar","Scalar","Scalar"])";
  const std::string ok = R"(["", "", "", "0.", "False", "False", "0.25"])";
  const std::string op = "aten::_scaled_dot_product_flash_attention";
  REQUIRE(Modeled(op, dims, types, ok));
  CHECK_FALSE(Modeled(op, dims, types, ""));                                            // no causal
  CHECK_FALSE(Modeled(op, dims, types, R"(["", "", "", "0.", "", "False", "0.25"])"));  // unknown
  CHECK_FALSE(Modeled(op, dims, types, R"(["", "", ""])"));                             // too short
  // Causal with L != S (TraceLens halves only square score matrices).
  CHECK_FALSE(Modeled(op,
                      "[[2,4,8,16],[2,4,6,16],[2,4,6,16],[],[],[],[]]",
                      types,
                      R"(["", "", "", "0.", "True", "False", "0.25"])"));
  CHECK(Modeled(op, "[[2,4,8,16],[2,4,6,16],[2,4,6,16],[],[],[],[]]", types, ok));
  CHECK_FALSE(Modeled(op, "[[2,4,8,16],[2,4,8,8],[2,4,8,16],[],[],[],[]]", types, ok));   // E
  CHECK_FALSE(Modeled(op, "[[2,4,8,16],[2,4,8,16],[2,4,9,16],[],[],[],[]]", types, ok));  // S
  CHECK_FALSE(Modeled(op, "[[2,4,8,16],[2,3,8,16],[2,3,8,16],[],[],[],[]]", types, ok));  // H
  CHECK_FALSE(Modeled(op, "[[4,8,16],[4,8,16],[4,8,16],[],[],[],[]]", types, ok));        // rank
  CHECK_FALSE(
      Modeled(op,
              dims,
              R"(["c10::BFloat16","float","c10::BFloat16","Scalar","Scalar","Scalar","Scalar"])",
              ok));
  // Packed variable-length batches and sliding windows.
  CHECK_FALSE(Modeled("aten::_flash_attention_forward",
                      FlashDims("[16,4,16]", "[3]"),
                      kFlashTypes,
                      FlashConcrete("False")));
  CHECK_FALSE(Modeled("aten::_flash_attention_forward",
                      FlashDims("[2,8,4,16]"),
                      kFlashTypes,
                      FlashConcrete("False", "128")));
  // Backward ops are not modelled.
  CHECK_FALSE(Modeled("aten::_scaled_dot_product_flash_attention_backward", dims, types, ok));
}

TEST_CASE("shape: the ViT H100 trace models its patch convolution and flash attention",
          "[shape][corpus]") {
  auto path = gpuperf::testing::CorpusFile(
      "kineto/tracelens/h100/Falconsai_nsfw_image_detection__1016002.json.gz");
  if (!path)
    return;
  auto trace = gpuperf::io::ImportTraceFile(*path);
  REQUIRE(trace.ok());
  gpuperf::analysis::CorrelationIndex index(*trace);
  auto ops = gpuperf::analysis::ModelHostOps(*trace, index);
  std::vector<const gpuperf::analysis::ModeledOp*> conv, attention;
  for (const auto& op : ops) {
    std::string name(trace->Name(trace->host_ops[op.host_op].name));
    if (op.work.kind == ShapeOpKind::kConvolution) {
      CHECK(name == "aten::cudnn_convolution");  // never conv2d / convolution / _convolution
      conv.push_back(&op);
    }
    if (op.work.kind == ShapeOpKind::kAttention) {
      CHECK(name == "aten::_flash_attention_forward");  // never the SDPA ops above it
      attention.push_back(&op);
    }
  }
  // One conv: x [4,3,224,224] bf16, w [768,3,16,16], stride 16 -> 14 x 14;
  // FLOPs = 2*4*768*196*3*256 = 924844032, bytes = (602112 + 589824 + 602112) * 2 = 3588096.
  REQUIRE(conv.size() == 1);
  CHECK(conv[0]->work.flops == 924844032);
  CHECK(conv[0]->work.bytes == 3588096);
  CHECK(conv[0]->work.precision == model::Precision::kBf16);
  std::string conv_kernel(trace->Name(trace->activities[conv[0]->target].name));
  CHECK(conv_kernel.find("fprop") != std::string::npos);  // the cutlass conv, not a layout copy
  // Twelve layers of attention, Q/K/V [4,197,12,64] bf16, not causal:
  // FLOPs = 2*4*12*197*197*(64 + 64) = 476884992; bytes = 4 * 605184 * 2 = 4841472.
  REQUIRE(attention.size() == 12);
  for (const auto* op : attention) {
    CHECK(op->work.flops == 476884992);
    CHECK(op->work.bytes == 4841472);
    std::string kernel(trace->Name(trace->activities[op->target].name));
    CHECK(kernel.find("flash_fwd_kernel") != std::string::npos);
  }
  // Both kernel names get a modelled roofline in the report.
  auto report = gpuperf::analysis::Analyze(*trace);
  int modeled = 0;
  for (const auto& row : report.kernels) {
    bool conv_row = row.name == conv_kernel;
    bool flash_row = row.name.find("flash_fwd_kernel") != std::string::npos;
    if (!conv_row && !flash_row)
      continue;
    INFO(row.name);
    REQUIRE(row.roofline.has_value());
    CHECK(row.roofline->evidence == gpuperf::report::EvidenceTier::kModeled);
    CHECK(row.roofline->precision == "bf16");
    CHECK(row.roofline->unit == "tensor");
    ++modeled;
  }
  CHECK(modeled >= 2);
}

TEST_CASE("shape: the Qwen H100 trace models causal flash attention", "[shape][corpus]") {
  auto path =
      gpuperf::testing::CorpusFile("kineto/tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz");
  if (!path)
    return;
  auto trace = gpuperf::io::ImportTraceFile(*path);
  REQUIRE(trace.ok());
  gpuperf::analysis::CorrelationIndex index(*trace);
  int attention = 0;
  for (const auto& op : gpuperf::analysis::ModelHostOps(*trace, index)) {
    if (op.work.kind != ShapeOpKind::kAttention)
      continue;
    ++attention;
    // Q/K/V [16,559,16,64] bf16, causal: 16*16*559*559*(64 + 64) = 10239377408 (half of the full
    // 2 B H L S (E + Ev)); bytes = 4 * 9158656 * 2 = 73269248.
    CHECK(op.work.flops == 10239377408);
    CHECK(op.work.bytes == 73269248);
  }
  CHECK(attention == 24);
}
