#include "commands.hpp"

namespace tcgemm::cli {
Runner add_main(CLI::App& app) {
  app.add_subcommand("main", "(not yet implemented)");
  return [] { return usage_error("main: not yet implemented"); };
}
}  // namespace tcgemm::cli
