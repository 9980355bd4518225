// Shape models of convolutions: the output size, FLOPs and bytes by hand on small shapes (stride,
// padding, dilation, groups, bias, transposed), the "Concrete Inputs" they read (malformed: not
// modelled, never a crash), and the Kineto importer keeping that arg with only the innermost op of
// conv2d > convolution > cudnn_convolution modelled.
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analysis/core/correlation.h"
#include "analysis/kernel/shape_model.h"
#include "analysis/kernel/shape_model_ops.h"
#include "shape_model_helpers.h"

namespace {

namespace model = gpuperf::model;
using gpuperf::analysis::OpWork;
using gpuperf::analysis::ShapeOpKind;
using gpuperf::testing::Modeled;
using gpuperf::testing::ModelWork;

// aten::convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding,
// groups) with these shapes and concrete values, fp32.
const std::string kConvTypes =
    R"(["float","float","float","ScalarList","ScalarList","ScalarList","Scalar","ScalarList","Scalar"])";
std::string ConvDims(const std::string& input, const std::string& weight, const std::string& bias) {
  return "[" + input + "," + weight + "," + bias + ",[],[],[],[],[],[]]";
}
std::string ConvConcrete(const std::string& stride,
                         const std::string& padding,
                         const std::string& dilation,
                         const std::string& transposed,
                         const std::string& output_padding,
                         const std::string& groups) {
  return R"(["", "", "", ")" + stride + R"(", ")" + padding + R"(", ")" + dilation + R"(", ")" +
         transposed + R"(", ")" + output_padding + R"(", ")" + groups + R"("])";
}

// aten::cudnn_convolution(input, weight, padding, stride, dilation, groups, benchmark,
// deterministic, allow_tf32).
const std::string kCudnnDims = "[[4,3,224,224],[768,3,16,16],[],[],[],[],[],[],[]]";
std::string CudnnTypes(const std::string& type) {
  return R"([")" + type + R"(",")" + type +
         R"(","ScalarList","ScalarList","ScalarList","Scalar","Scalar","Scalar","Scalar"])";
}
std::string CudnnConcrete(const std::string& allow_tf32) {
  return R"(["", "", "[0, 0]", "[16, 16]", "[1, 1]", "1", "False", "False", ")" + allow_tf32 +
         R"("])";
}

}  // namespace

TEST_CASE("shape: Concrete Inputs and their values parse, anything else is rejected", "[shape]") {
  using gpuperf::analysis::ParseConcreteInputs;
  namespace shape = gpuperf::analysis::shape;
  auto concrete = ParseConcreteInputs(R"(["", "[0, 0]", "1", "False", "0."])");
  REQUIRE(concrete.has_value());
  CHECK(*concrete == std::vector<std::string>{"", "[0, 0]", "1", "False", "0."});
  CHECK_FALSE(ParseConcreteInputs(R"(["", "[0, 0]")").has_value());
  CHECK_FALSE(ParseConcreteInputs(R"(["", 1])").has_value());
  CHECK_FALSE(ParseConcreteInputs("").has_value());
  CHECK(shape::ParseIntList("[16, 16]") == shape::Dims{16, 16});
  CHECK(shape::ParseIntList("[]") == shape::Dims{});
  CHECK(shape::ParseIntList("3") == shape::Dims{3});
  CHECK_FALSE(shape::ParseIntList("").has_value());
  CHECK_FALSE(shape::ParseIntList("same").has_value());
  CHECK_FALSE(shape::ParseIntList("[-1, 2]").has_value());
  CHECK_FALSE(shape::ParseIntList("[1, 2").has_value());
  CHECK_FALSE(shape::ParseIntList("[1, 2] x").has_value());
  CHECK_FALSE(shape::ParseIntList("[99999999999999999999]").has_value());
  CHECK(shape::ParseInt("12") == 12);
  CHECK_FALSE(shape::ParseInt("1.5").has_value());
  CHECK(shape::ParseBool("True") == true);
  CHECK(shape::ParseBool("False") == false);
  CHECK_FALSE(shape::ParseBool("true").has_value());
  CHECK_FALSE(shape::ParseBool("").has_value());
}

TEST_CASE("shape: convolution with stride, padding, dilation, groups and bias by hand", "[shape]") {
  // x [2,4,9,9], w [6,2,3,3], bias [6], stride 2, padding 1, dilation 2, groups 2 (C_in / groups
  // = 2 = w[1]): out = floor((9 + 2*1 - 2*(3-1) - 1) / 2) + 1 = floor(6 / 2) + 1 = 4, so
  // y [2,6,4,4] = 192 elements. FLOPs = 2 * 192 * (2*3*3) + 192 (bias) = 6912 + 192 = 7104;
  // bytes = (648 + 108 + 192 + 6) * 4 = 3816.
  OpWork conv = ModelWork("aten::convolution",
                          ConvDims("[2,4,9,9]", "[6,2,3,3]", "[6]"),
                          kConvTypes,
                          ConvConcrete("[2, 2]", "[1, 1]", "[2, 2]", "False", "[0, 0]", "2"));
  CHECK(conv.kind == ShapeOpKind::kConvolution);
  CHECK(conv.bias);
  CHECK(conv.elements == 192);
  CHECK(conv.flops == 7104);
  CHECK(conv.bytes == 3816);
  CHECK(conv.precision == model::Precision::kFp32);  // aten::convolution has no allow_tf32
  CHECK(conv.unit == model::MathUnit::kVector);

  // Without the bias (absent third argument): 6912 FLOPs, (648 + 108 + 192) * 4 = 3792 bytes.
  OpWork nobias = ModelWork("aten::convolution",
                            ConvDims("[2,4,9,9]", "[6,2,3,3]", "[]"),
                            kConvTypes,
                            ConvConcrete("[2, 2]", "[1, 1]", "[2, 2]", "False", "[0, 0]", "2"));
  CHECK_FALSE(nobias.bias);
  CHECK(nobias.flops == 6912);
  CHECK(nobias.bytes == 3792);

  // conv1d(x [2,4,10], w [8,4,3], bias [8], stride 1, padding 0, dilation 1, groups 1):
  // out = 10 - 2 = 8, y [2,8,8] = 128; FLOPs = 2*128*12 + 128 = 3200;
  // bytes = (80 + 96 + 128 + 8) * 4 = 1248.
  OpWork conv1d =
      ModelWork("aten::conv1d",
                "[[2,4,10],[8,4,3],[8],[],[],[],[]]",
                R"(["float","float","float","ScalarList","ScalarList","ScalarList","Scalar"])",
                R"(["", "", "", "[1]", "[0]", "[1]", "1"])");
  CHECK(conv1d.flops == 3200);
  CHECK(conv1d.bytes == 1248);
}

TEST_CASE("shape: cudnn_convolution argument order, one-value lists, units", "[shape]") {
  // cudnn_convolution(x [1,3,10,7], w [8,3,3,2], padding [0,1], stride [1,2], dilation [1]
  // (= [1,1]), groups 1), bf16: h = (10 - 2 - 1) / 1 + 1 = 8, w = floor((7 + 2 - 1 - 1) / 2) + 1 =
  // 4, y [1,8,8,4] = 256; FLOPs = 2*256*(3*3*2) = 9216 (no bias argument); bytes = (210 + 144 +
  // 256) * 2 = 1220.
  OpWork conv = ModelWork("aten::cudnn_convolution",
                          "[[1,3,10,7],[8,3,3,2],[],[],[],[],[],[],[]]",
                          CudnnTypes("c10::BFloat16"),
                          R"(["", "", "[0, 1]", "[1, 2]", "[1]", "1", "False", "False", "True"])");
  CHECK(conv.elements == 256);
  CHECK(conv.flops == 9216);
  CHECK(conv.bytes == 1220);
  CHECK(conv.precision == model::Precision::kBf16);
  CHECK(conv.unit == model::MathUnit::kTensor);

  // The ViT patch embedding: x [4,3,224,224], w [768,3,16,16], stride 16, padding 0:
  // out = (224 - 15 - 1) / 16 + 1 = 14; FLOPs = 2*4*768*196*3*256 = 924844032;
  // bytes = (602112 + 589824 + 602112) * 2 = 3588096.
  OpWork vit = ModelWork(
      "aten::cudnn_convolution", kCudnnDims, CudnnTypes("c10::BFloat16"), CudnnConcrete("True"));
  CHECK(vit.flops == 924844032);
  CHECK(vit.bytes == 3588096);

  // fp32: TF32 tensor cores when cuDNN is allowed TF32 (an assumption), fp32 vector otherwise.
  OpWork tf32 =
      ModelWork("aten::cudnn_convolution", kCudnnDims, CudnnTypes("float"), CudnnConcrete("True"));
  CHECK(tf32.precision == model::Precision::kTf32);
  CHECK(tf32.unit == model::MathUnit::kTensor);
  CHECK(tf32.bytes == 2 * 3588096);
  OpWork fp32 =
      ModelWork("aten::cudnn_convolution", kCudnnDims, CudnnTypes("float"), CudnnConcrete("False"));
  CHECK(fp32.precision == model::Precision::kFp32);
  CHECK(fp32.unit == model::MathUnit::kVector);
}

TEST_CASE("shape: transposed convolution by hand", "[shape]") {
  // convolution(x [1,4,3,3], w [4,2,3,3], transposed, stride 2, padding 1, output_padding 1,
  // groups 2): C_out = 2*2 = 4, out = (3-1)*2 - 2*1 + 1*(3-1) + 1 + 1 = 6, y [1,4,6,6] = 144.
  // FLOPs = 2 * input elements (36) * w[1]*3*3 (18) = 1296; bytes = (36 + 72 + 144) * 4 = 1008.
  OpWork t = ModelWork("aten::convolution",
                       ConvDims("[1,4,3,3]", "[4,2,3,3]", "[]"),
                       kConvTypes,
                       ConvConcrete("[2, 2]", "[1, 1]", "[1, 1]", "True", "[1, 1]", "2"));
  CHECK(t.elements == 144);
  CHECK(t.flops == 1296);
  CHECK(t.bytes == 1008);
}

TEST_CASE("shape: convolutions with missing or malformed arguments are not modelled", "[shape]") {
  const std::string x = "[2,4,9,9]", w = "[6,2,3,3]", b = "[6]";
  auto conv = [&](const std::string& dims, const std::string& concrete) {
    return Modeled("aten::convolution", dims, kConvTypes, concrete);
  };
  const std::string ok = ConvConcrete("[2, 2]", "[1, 1]", "[2, 2]", "False", "[0, 0]", "2");
  REQUIRE(conv(ConvDims(x, w, b), ok));
  CHECK_FALSE(Modeled("aten::convolution", ConvDims(x, w, b), kConvTypes, ""));  // not recorded
  CHECK_FALSE(conv(ConvDims(x, w, b), R"(["", "", "", "[2, 2]")"));              // truncated
  CHECK_FALSE(conv(ConvDims(x, w, b), R"(["", "", "", "[2, 2]", "[1, 1]"])"));   // too short
  CHECK_FALSE(
      conv(ConvDims(x, w, b), ConvConcrete("", "[1, 1]", "[2, 2]", "False", "[0, 0]", "2")));
  CHECK_FALSE(conv(ConvDims(x, w, b),
                   ConvConcrete("[2, 2, 2]", "[1, 1]", "[2, 2]", "False", "[0, 0]", "2")));
  CHECK_FALSE(
      conv(ConvDims(x, w, b), ConvConcrete("[0, 2]", "[1, 1]", "[2, 2]", "False", "[0, 0]", "2")));
  CHECK_FALSE(
      conv(ConvDims(x, w, b), ConvConcrete("[2, 2]", "same", "[2, 2]", "False", "[0, 0]", "2")));
  CHECK_FALSE(
      conv(ConvDims(x, w, b), ConvConcrete("[2, 2]", "[1, 1]", "[2, 2]", "maybe", "[0, 0]", "2")));
  CHECK_FALSE(
      conv(ConvDims(x, w, b), ConvConcrete("[2, 2]", "[1, 1]", "[2, 2]", "False", "[0, 0]", "0")));
  CHECK_FALSE(
      conv(ConvDims(x, w, b), ConvConcrete("[2, 2]", "[1, 1]", "[2, 2]", "False", "[0, 0]", "3")));
  CHECK_FALSE(
      conv(ConvDims(x, w, b), ConvConcrete("[2, 2]", "[1, 1]", "[2, 2]", "False", "[0, 0]", "1")));
  CHECK_FALSE(conv(ConvDims(x, "[6,2,11,11]", b), ok));  // the dilated kernel exceeds the input
  CHECK_FALSE(conv(ConvDims("[2,4]", "[6,2]", b), ok));  // no spatial dims
  CHECK_FALSE(conv(ConvDims("[1,4,9,9,9,9]", "[6,2,3,3,3,3]", b), ok));  // 4 spatial dims
  CHECK_FALSE(conv(ConvDims("[4294967296,4,4294967296,9]", w, b), ok));  // overflows int64
  CHECK_FALSE(Modeled(
      "aten::convolution",
      ConvDims(x, w, b),
      R"(["float","c10::Half","float","ScalarList","ScalarList","ScalarList","Scalar","ScalarList","Scalar"])",
      ok));
  // A GEMM does not need concrete inputs: a malformed one does not stop it.
  CHECK(Modeled("aten::mm", "[[2,3],[3,4]]", R"(["float","float"])", R"(["", )"));
}

TEST_CASE("shape: the Kineto importer keeps Concrete Inputs, only the innermost op is modelled",
          "[shape]") {
  // aten::conv2d [0, 100] > aten::convolution [2, 98] > aten::cudnn_convolution [5, 90], which
  // launches the kernel (correlation 1); every level records its own arguments.
  const std::string events = R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::conv2d", "pid": 1, "tid": 1, "ts": 0, "dur": 100,
     "args": {"Input Dims": [[4, 3, 224, 224], [768, 3, 16, 16], [768], [], [], [], []],
              "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "ScalarList",
                             "ScalarList", "ScalarList", "Scalar"],
              "Concrete Inputs": ["", "", "", "[16, 16]", "[0, 0]", "[1, 1]", "1"]}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::convolution", "pid": 1, "tid": 1, "ts": 2,
     "dur": 96, "args": {"Input Dims": [[4, 3, 224, 224], [768, 3, 16, 16], [768], [], [], [], [],
              [], []], "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16",
              "ScalarList", "ScalarList", "ScalarList", "Scalar", "ScalarList", "Scalar"],
              "Concrete Inputs": ["", "", "", "[16, 16]", "[0, 0]", "[1, 1]", "False", "[0, 0]",
                                  "1"]}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::cudnn_convolution", "pid": 1, "tid": 1, "ts": 5,
     "dur": 85, "args": {"Input Dims": [[4, 3, 224, 224], [768, 3, 16, 16], [], [], [], [], [], [],
              []], "Input type": ["c10::BFloat16", "c10::BFloat16", "ScalarList", "ScalarList",
              "ScalarList", "Scalar", "Scalar", "Scalar", "Scalar"],
              "Concrete Inputs": ["", "", "[0, 0]", "[16, 16]", "[1, 1]", "1", "False", "False",
                                  "True"]}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 10,
     "dur": 5, "args": {"correlation": 1}},
    {"ph": "X", "cat": "kernel", "name": "conv_fprop", "pid": 0, "tid": 7, "ts": 20, "dur": 98,
     "args": {"device": 0, "stream": 7, "correlation": 1}}]})";
  auto trace = gpuperf::io::ImportTraceMemory(events, "conv.json");
  REQUIRE(trace.ok());
  REQUIRE(trace->host_ops.size() == 3);
  CHECK(trace->Name(trace->host_ops[2].concrete_inputs) ==
        R"(["","","[0, 0]","[16, 16]","[1, 1]","1","False","False","True"])");
  gpuperf::analysis::CorrelationIndex index(*trace);
  auto ops = gpuperf::analysis::ModelHostOps(*trace, index);
  REQUIRE(ops.size() == 1);  // not conv2d or convolution: they launch nothing themselves
  CHECK(trace->Name(trace->host_ops[ops[0].host_op].name) == "aten::cudnn_convolution");
  CHECK(ops[0].work.flops == 924844032);
  CHECK(ops[0].work.bytes == 3588096);
}
