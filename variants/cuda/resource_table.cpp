#include "variants/cuda/resource_table.hpp"

#include <sstream>
#include <stdexcept>

#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/embedded_resource_table.hpp"

namespace flowtune::cuda {
namespace {

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out(1);
  for (char ch : line) {
    if (ch == ',')
      out.emplace_back();
    else if (ch != '\r')
      out.back() += ch;
  }
  return out;
}

int non_negative(const std::string& text, const std::string& where, const std::string& column) {
  std::size_t used = 0;
  long v = -1;
  try {
    v = std::stol(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || v < 0 || v > 1 << 30)
    throw std::runtime_error(where + ": " + column + " '" + text +
                             "' is not a non-negative integer");
  return static_cast<int>(v);
}

}  // namespace

bool is_resource_neutral(const std::string& tunable) {
  return is_level_threshold(tunable) || is_tiled_shape_tunable(tunable) || tunable == "strip_h";
}

std::string build_tunables_text(const Config& config) {
  std::string out;
  for (const auto& [name, value] : config.tunables)
    // staging = 0 is the kernel without the tunable (the table's builds from before it).
    if (!is_resource_neutral(name) && !(name == staging_domain().name && value == 0))
      out += (out.empty() ? "" : " ") + name + "=" + std::to_string(value);
  return out;
}

ResourceTable ResourceTable::parse(const std::string& csv, const std::string& source) {
  static const char* kHeader =
      "workload,variant,precision,tunables,arch,built_for,kernel,registers,static_shared_bytes,"
      "local_bytes,spill_bytes,status";
  ResourceTable t;
  t.source_ = source;
  std::istringstream in(csv);
  std::string line;
  std::size_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string where = source + ":" + std::to_string(n);
    if (n == 1) {
      if (line != kHeader)
        throw std::runtime_error(where + ": expected the header '" + std::string(kHeader) + "'");
      continue;
    }
    if (line.empty()) continue;
    const std::vector<std::string> f = split_csv_line(line);
    if (f.size() != 12)
      throw std::runtime_error(where + ": " + std::to_string(f.size()) + " columns, expected 12");
    if (f[11] != "ok") continue;  // failed or built for a stand-in arch: not a native report
    KernelResources r;
    r.kernel = f[6];
    r.built_for = f[5];
    r.registers_per_thread = non_negative(f[7], where, "registers");
    r.static_shared_bytes = non_negative(f[8], where, "static_shared_bytes");
    r.local_bytes = non_negative(f[9], where, "local_bytes");
    r.spill_bytes = non_negative(f[10], where, "spill_bytes");
    r.from_table = true;
    t.builds_[Key{f[1], f[2], f[3], f[4]}].push_back(r);
  }
  if (n == 0) throw std::runtime_error(source + ": empty (expected the CSV header)");
  return t;
}

const ResourceTable& ResourceTable::committed() {
  static const ResourceTable table =
      parse(embedded_resource_table_csv(), "variants/cuda/kernel_resources.csv");
  return table;
}

const std::vector<KernelResources>* ResourceTable::find(const std::string& variant,
                                                        const std::string& precision,
                                                        const std::string& tunables,
                                                        const std::string& arch) const {
  const auto it = builds_.find(Key{variant, precision, tunables, arch});
  return it == builds_.end() ? nullptr : &it->second;
}

}  // namespace flowtune::cuda
