#include "commands.hpp"

namespace tcgemm::cli {
Runner add_occupancy(CLI::App& app) {
  app.add_subcommand("occupancy", "(not yet implemented)");
  return [] { return usage_error("occupancy: not yet implemented"); };
}
}  // namespace tcgemm::cli
