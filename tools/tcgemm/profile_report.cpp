#include "profile_report.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace tcgemm::cli {
namespace {

std::string fixed(double v, int digits) {
  if (v <= 0) return "-";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
  return buf;
}

// Full precision for machine-readable output; empty for "not measured".
std::string number(double v) {
  if (v <= 0) return "";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

}  // namespace

void print_table(std::ostream& os, const std::vector<ProfileRow>& rows) {
  const std::vector<std::string> header{"Problem", "Provider", "Kernel", "Disposition",
                                        "Runtime(ms)", "GFLOP/s", "GB/s", "vs cuBLAS"};
  std::vector<std::vector<std::string>> cells;
  for (const ProfileRow& r : rows)
    cells.push_back({r.problem, r.provider, r.kernel, r.disposition, fixed(r.runtime_ms, 4),
                     fixed(r.gflops, 0), fixed(r.gbps, 0),
                     r.ratio_to_cublas > 0 ? fixed(r.ratio_to_cublas, 2) + "x" : "-"});
  std::vector<std::size_t> width(header.size());
  for (std::size_t i = 0; i < header.size(); ++i) {
    width[i] = header[i].size();
    for (const auto& row : cells) width[i] = std::max(width[i], row[i].size());
  }
  auto line = [&](const std::vector<std::string>& v) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) {
      // Text columns align left, numbers right.
      const std::size_t pad = width[i] - v[i].size();
      if (i < 4) out += v[i] + std::string(pad, ' ');
      else out += std::string(pad, ' ') + v[i];
      if (i + 1 < v.size()) out += "  ";
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    os << out << '\n';
  };
  line(header);
  for (const auto& row : cells) line(row);
  bool any_note = false;
  for (const ProfileRow& r : rows) {
    if (r.disposition == "passed" || r.detail.empty()) continue;
    if (!any_note) os << "notes:\n";
    any_note = true;
    os << "  " << r.problem << " / " << r.provider << " " << r.kernel << ": " << r.disposition
       << ": " << r.detail << '\n';
  }
}

std::string csv_field(std::string_view s) {
  if (s.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

void write_csv(std::ostream& os, const std::vector<ProfileRow>& rows, const RunInfo& info) {
  os << "date,device,driver,command_line,problem,m,n,k,A,B,C,D,alpha,beta,provider,kernel,"
        "disposition,detail,runtime_ms,gflops,gbps,ratio_to_cublas,raster_order,swizzle_size\n";
  for (const ProfileRow& r : rows) {
    char ab[64];
    std::snprintf(ab, sizeof(ab), "%g,%g", r.alpha, r.beta);
    os << csv_field(info.date) << ',' << csv_field(info.device) << ',' << csv_field(info.driver)
       << ',' << csv_field(info.command_line) << ',' << csv_field(r.problem) << ',' << r.m << ','
       << r.n << ',' << r.k << ',' << csv_field(r.a) << ',' << csv_field(r.b) << ','
       << csv_field(r.c) << ',' << csv_field(r.d) << ',' << ab << ',' << csv_field(r.provider)
       << ',' << csv_field(r.kernel) << ',' << csv_field(r.disposition) << ','
       << csv_field(r.detail) << ',' << number(r.runtime_ms) << ',' << number(r.gflops) << ','
       << number(r.gbps) << ',' << number(r.ratio_to_cublas) << ',' << csv_field(r.raster_order) << ','
       << (r.swizzle_size > 0 ? std::to_string(r.swizzle_size) : "") << '\n';
  }
}

nlohmann::json to_json(const std::vector<ProfileRow>& rows, const RunInfo& info) {
  nlohmann::json j;
  j["date"] = info.date;
  j["device"] = info.device;
  j["driver"] = info.driver;
  j["command_line"] = info.command_line;
  j["rows"] = nlohmann::json::array();
  for (const ProfileRow& r : rows) {
    nlohmann::json o{{"problem", r.problem}, {"m", r.m}, {"n", r.n}, {"k", r.k},
                     {"A", r.a}, {"B", r.b}, {"C", r.c}, {"D", r.d},
                     {"alpha", r.alpha}, {"beta", r.beta}, {"provider", r.provider},
                     {"kernel", r.kernel}, {"disposition", r.disposition}, {"detail", r.detail}};
    // null, not 0, for "not measured": a zero runtime would read as infinitely fast.
    o["runtime_ms"] = r.runtime_ms > 0 ? nlohmann::json(r.runtime_ms) : nlohmann::json();
    o["gflops"] = r.gflops > 0 ? nlohmann::json(r.gflops) : nlohmann::json();
    o["gbps"] = r.gbps > 0 ? nlohmann::json(r.gbps) : nlohmann::json();
    o["ratio_to_cublas"] =
        r.ratio_to_cublas > 0 ? nlohmann::json(r.ratio_to_cublas) : nlohmann::json();
    o["raster_order"] = r.raster_order.empty() ? nlohmann::json() : nlohmann::json(r.raster_order);
    o["swizzle_size"] = r.swizzle_size > 0 ? nlohmann::json(r.swizzle_size) : nlohmann::json();
    j["rows"].push_back(std::move(o));
  }
  return j;
}

}  // namespace tcgemm::cli
