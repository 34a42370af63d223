#include "tuner/resources_json.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace flowtune {

std::string resources_json(const std::vector<KernelResources>& resources) {
  nlohmann::json out = nlohmann::json::array();
  for (const KernelResources& r : resources)
    out.push_back({{"kernel", r.kernel},
                   {"threads", r.threads_per_block},
                   {"registers", r.registers_per_thread},
                   {"static_shared_bytes", r.static_shared_bytes},
                   {"dynamic_shared_bytes", r.dynamic_shared_bytes},
                   {"local_bytes", r.local_bytes},
                   {"spill_bytes", r.spill_bytes},
                   {"built_for", r.built_for},
                   {"estimated", r.estimated}});
  return out.dump();
}

std::vector<KernelResources> parse_resources_json(const std::string& text) {
  if (text.empty()) return {};
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    if (!j.is_array()) throw std::invalid_argument("not a JSON array");
    std::vector<KernelResources> out;
    for (const nlohmann::json& e : j) {
      KernelResources r;
      r.kernel = e.at("kernel").get<std::string>();
      r.threads_per_block = e.at("threads").get<int>();
      r.registers_per_thread = e.at("registers").get<int>();
      r.static_shared_bytes = e.at("static_shared_bytes").get<int>();
      r.dynamic_shared_bytes = e.at("dynamic_shared_bytes").get<int>();
      r.local_bytes = e.value("local_bytes", 0);
      r.spill_bytes = e.value("spill_bytes", 0);
      r.built_for = e.value("built_for", std::string());
      r.estimated = e.value("estimated", false);
      out.push_back(r);
    }
    return out;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument("resource report: " + std::string(e.what()));
  }
}

}  // namespace flowtune
