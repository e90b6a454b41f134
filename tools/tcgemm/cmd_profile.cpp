#include <map>
#include <memory>
#include <vector>

#include "commands.hpp"
#include "profile_options.hpp"
#include "profile_runner.hpp"

namespace tcgemm::cli {

Runner add_profile(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "profile",
      "time and verify GEMMs against cuBLAS, with cutlass_profiler's flags "
      "(e.g. --m=4096 --n=4096 --k=4096 --A=bf16:row --B=bf16:column)");
  const auto& specs = profile_flag_specs();
  // Every flag is read as text and validated by parse_profile_options, so the rules (and their
  // one-line errors) live in one host-only, unit-tested place.
  auto values = std::make_shared<std::vector<std::string>>(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i)
    sub->add_option("--" + std::string(specs[i].name), (*values)[i], std::string(specs[i].help));
  return [sub, values]() {
    const auto& specs = profile_flag_specs();
    std::map<std::string, std::string> given;
    for (std::size_t i = 0; i < specs.size(); ++i)
      if (sub->get_option("--" + std::string(specs[i].name))->count() > 0)
        given[std::string(specs[i].name)] = (*values)[i];
    auto options = parse_profile_options(given);
    if (!options.ok()) return usage_error(options.status().message());
    return run_profile(*options);
  };
}

}  // namespace tcgemm::cli
