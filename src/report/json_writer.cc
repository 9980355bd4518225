// PLACEHOLDER
namespace gpuperf::report {}
