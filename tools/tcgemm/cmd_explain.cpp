#include "commands.hpp"

namespace tcgemm::cli {
Runner add_explain(CLI::App& app) {
  app.add_subcommand("explain", "(not yet implemented)");
  return [] { return usage_error("explain: not yet implemented"); };
}
}  // namespace tcgemm::cli
