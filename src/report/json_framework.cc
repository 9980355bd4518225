#include "report/json_framework.h"

#include "report/json_field_writer.h"
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
              {"evidence", std::string(ToString(s.evidence))}};
}

// The keys that compare reads back first (gpuperf/report_json_fields.h), then the rest.
template <class Row, class Fields>
Json ObjectOf(const Row& row, Fields fields) {
  Json object = Json::object();
  JsonFieldWriter write(object);
  fields(row, write);
  return object;
}

Json OperatorJson(const OperatorRow& op) {
  Json shapes = Json::array();
  for (const OperatorShape& s : op.shapes)
    shapes.push_back(ShapeJson(s));
  Json object = ObjectOf(op, [](auto& row, auto& v) { json_fields::OperatorRowFields(row, v); });
  object["shapes"] = std::move(shapes);
  object["shapes_omitted"] = op.shapes_omitted;
  return object;
}

Json CategoryJson(const CategoryRow& c) {
  Json object = ObjectOf(c, [](auto& row, auto& v) { json_fields::CategoryRowFields(row, v); });
  object["fraction"] = RoundedNumber(c.fraction, 6);
  object["by_operator_ns"] = c.by_operator_ns;
  object["by_kernel_name_ns"] = c.by_kernel_name_ns;
  object["by_activity_ns"] = c.by_activity_ns;
  object["top_operators"] = c.top_operators;
  return object;
}

Json ModuleJson(const ModuleRow& m) {
  Json object = ObjectOf(m, [](auto& row, auto& v) { json_fields::ModuleRowFields(row, v); });
  object["fraction"] = RoundedNumber(m.fraction, 6);
  object["depth"] = m.depth;
  return object;
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
              {"launched_busy_ns", s.launched_busy_ns},
              {"flops", Optional(s.flops)},
              {"unmodeled_math_ns", s.unmodeled_math_ns},
              {"unmodeled_math_fraction", RoundedNumber(s.unmodeled_math_fraction, 6)},  // 1.21.0
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
              {"warmup_steps", s->warmup_steps},
              {"median_mfu", OptionalNumber(s->median_mfu, 6)},
              {"no_mfu_unmodeled_math_fraction",  // since 1.25.0
               OptionalNumber(s->no_mfu_unmodeled_math_fraction, 6)}};
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
  Json framework = ObjectOf(view, [](auto& f, auto& v) { json_fields::FrameworkFields(f, v); });
  framework["orphan_gpu_ns"] = view.orphan_gpu_ns;
  framework["orphan_fraction"] = RoundedNumber(view.orphan_fraction, 6);  // since 1.21.0
  framework["unmarked_threads"] = ArrayOf(view.unmarked_threads, [](const UnmarkedThread& t) {
    return Json{{"pid", t.pid}, {"tid", t.tid}, {"launches", t.launches}, {"gpu_ns", t.gpu_ns}};
  });
  const ElementwiseChains& c = view.elementwise_chains;
  framework["elementwise_chains"] = Json{{"chains", c.chains},
                                         {"kernel_ns", c.kernel_ns},
                                         {"longest_ops", c.longest_ops},
                                         {"bounded_chains", c.bounded_chains},
                                         {"bounded_kernel_ns", c.bounded_kernel_ns},
                                         {"floor_bytes", c.floor_bytes},
                                         {"floor_ns", c.floor_ns}};
  framework["resized_embeddings"] = ArrayOf(view.resized_embeddings, [](const ResizedEmbedding& e) {
    return Json{{"module", e.module},
                {"op", e.op},
                {"from", e.from},
                {"to", e.to},
                {"calls", e.calls},
                {"growth", RoundedNumber(e.Growth(), 6)}};
  });
  framework["repeated_forward"] = view.repeated_forward
                                      ? Json{{"module", view.repeated_forward->module},
                                             {"within", view.repeated_forward->within},
                                             {"call", view.repeated_forward->call},
                                             {"runs", view.repeated_forward->runs},
                                             {"operators", view.repeated_forward->operators},
                                             {"load", view.repeated_forward->load},
                                             {"loads", view.repeated_forward->loads},
                                             {"repeats_ns", view.repeated_forward->repeats_ns}}
                                      : Json(nullptr);
  json[json_fields::kFramework] = std::move(framework);
  json[json_fields::kOperators] = ArrayOf(view.operators, OperatorJson);
  json[json_fields::kCategories] = ArrayOf(view.categories, CategoryJson);
  json[json_fields::kModules] = ArrayOf(view.modules, ModuleJson);
  json["module_tree"] = ArrayOf(view.module_tree, TreeNodeJson);
  json["steps"] = ArrayOf(view.steps, StepJson);
  json["step_summary"] = StepSummaryJson(view.step_summary);
}

}  // namespace gpuperf::report
