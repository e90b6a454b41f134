#include <cstdio>
#include <utility>
#include <vector>

#include "commands.hpp"

namespace tcgemm::cli {
int usage_error(const std::string& msg) {
  std::fprintf(stderr, "tcgemm: error: %s\n", msg.c_str());
  return kUsageError;
}
}  // namespace tcgemm::cli

int main(int argc, char** argv) {
  using namespace tcgemm::cli;
  CLI::App app{"tcgemm: Tensor Core GEMM for Hopper: explain, profile and run any GEMM shape"};
  app.require_subcommand(1);
  app.allow_windows_style_options(false);

  std::vector<std::pair<CLI::App*, Runner>> commands;
  auto add = [&](Runner (*adder)(CLI::App&)) {
    const std::size_t before = app.get_subcommands({}).size();
    Runner r = adder(app);
    commands.emplace_back(app.get_subcommands({})[before], std::move(r));
  };
  add(add_main);
  add(add_explain);
  add(add_occupancy);
  add(add_profile);
  add(add_kernels);
  add(add_bench);
  add(add_bandwidth);
  add(add_tune);
  add(add_ingest);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }
  for (auto& [sub, run] : commands)
    if (sub->parsed()) return run();
  return usage_error("no subcommand given (try --help)");
}
