#include "report/json_framework.h"

#include "report/json_predictions.h"

namespace gpuperf::report {
namespace {

using Json = nlohmann::ordered_json;

template <class T>
Json Optional(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

Json OptionalNumber(const std::optional<double>& value, int decimals) {
  return value ? RoundedNumber(*value, decimals) : Json(nullptr);
}

Json ShapeJson(const OperatorShape& s) {
  return Json{{"input_dims", s.input_dims},
              {"input_types", s.input_types},
              {"calls", s.calls},
              {"kernel_ns", s.kernel_ns},
              {"flops", Optional(s.flops)},
              {"bytes", Optional(s.bytes)},
              {"achieved_flops_per_s", OptionalNumber(s.achieved_flops_per_s, 0)},
              {"achieved_bytes_per_s", OptionalNumber(s.achieved_bytes_per_s, 0)},
              {"precision", s.precision},
              {"evidence", s.flops ? "modeled" : ""}};
}

Json OperatorJson(const OperatorRow& op) {
  Json shapes = Json::array();
  for (const OperatorShape& s : op.shapes)
    shapes.push_back(ShapeJson(s));
  return Json{{"name", op.name},
              {"source", op.source},
              {"calls", op.calls},
              {"instances", op.instances},
              {"kernel_ns", op.kernel_ns},
              {"subtree_kernel_ns", op.subtree_kernel_ns},
              {"call_avg_ns", RoundedNumber(op.call_avg_ns, 3)},
              {"call_med_ns", RoundedNumber(op.call_med_ns, 3)},
              {"call_stddev_ns", RoundedNumber(op.call_stddev_ns, 3)},
              {"launches", op.launches},
              {"graph_launches", op.graph_launches},
              {"host_self_ns", op.host_self_ns},
              {"host_total_ns", op.host_total_ns},
              {"fraction", RoundedNumber(op.fraction, 6)},
              {"category", op.category},
              {"category_tier", op.category_tier},
              {"top_kernel", op.top_kernel},
              {"top_module", op.top_module},
              {"shapes", std::move(shapes)},
              {"shapes_omitted", op.shapes_omitted}};
}

Json CategoryJson(const CategoryRow& c) {
  return Json{{"name", c.name},
              {"kernel_ns", c.kernel_ns},
              {"launches", c.launches},
              {"fraction", RoundedNumber(c.fraction, 6)},
              {"by_operator_ns", c.by_operator_ns},
              {"by_kernel_name_ns", c.by_kernel_name_ns},
              {"by_activity_ns", c.by_activity_ns},
              {"top_operators", c.top_operators}};
}

Json ModuleJson(const ModuleRow& m) {
  return Json{{"name", m.name},
              {"calls", m.calls},
              {"kernel_ns", m.kernel_ns},
              {"forward_ns", m.forward_ns},
              {"backward_ns", m.backward_ns},
              {"fraction", RoundedNumber(m.fraction, 6)},
              {"depth", m.depth}};
}

Json TreeNodeJson(const ModuleTreeNode& n) {
  return Json{{"path", n.path},
              {"name", n.name},
              {"depth", n.depth},
              {"calls", n.calls},
              {"kernel_ns", n.kernel_ns},
              {"fraction", RoundedNumber(n.fraction, 6)}};
}

Json StepJson(const StepRow& s) {
  return Json{{"name", s.name},
              {"start_ns", s.start_ns},
              {"wall_ns", s.wall_ns},
              {"gpu_busy_ns", s.gpu_busy_ns},
              {"idle_ns", s.idle_ns},
              {"kernel_ns", s.kernel_ns},
              {"launches", s.launches},
              {"flops", Optional(s.flops)},
              {"mfu", OptionalNumber(s.mfu, 6)}};
}

Json StepSummaryJson(const std::optional<StepSummary>& s) {
  if (!s)
    return nullptr;
  return Json{{"source", s->source},
              {"steps", s->steps},
              {"median_wall_ns", RoundedNumber(s->median_wall_ns, 1)},
              {"p95_wall_ns", RoundedNumber(s->p95_wall_ns, 1)},
              {"mad_wall_ns", RoundedNumber(s->mad_wall_ns, 1)},
              {"first_step_outlier", s->first_step_outlier},
              {"median_mfu", OptionalNumber(s->median_mfu, 6)}};
}

template <class Row, class ToJson>
Json ArrayOf(const std::vector<Row>& rows, ToJson to_json) {
  Json array = Json::array();
  for (const Row& row : rows)
    array.push_back(to_json(row));
  return array;
}

}  // namespace

void AddFrameworkJson(Json& json, const FrameworkView& view) {
  json["framework"] = Json{{"op_source", view.op_source},
                           {"total_gpu_ns", view.total_gpu_ns},
                           {"orphan_gpu_ns", view.orphan_gpu_ns}};
  json["operators"] = ArrayOf(view.operators, OperatorJson);
  json["categories"] = ArrayOf(view.categories, CategoryJson);
  json["modules"] = ArrayOf(view.modules, ModuleJson);
  json["module_tree"] = ArrayOf(view.module_tree, TreeNodeJson);
  json["steps"] = ArrayOf(view.steps, StepJson);
  json["step_summary"] = StepSummaryJson(view.step_summary);
}

}  // namespace gpuperf::report
