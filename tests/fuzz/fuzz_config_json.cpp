// Fuzz harness: the tuned-header / DB config JSON readers of db/repository.hpp,
// parse_config_json and parse_params_json, on arbitrary text. An accepted config must also
// survive config_json -> parse_config_json with the same key (the tuned header's round trip).
#include <cstdint>
#include <exception>
#include <string>

#include "db/repository.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)flowtune::db::parse_params_json(text);
  } catch (const std::exception&) {
    // documented: std::invalid_argument
  }
  flowtune::db::ConfigRow config;
  try {
    config = flowtune::db::parse_config_json(text);
  } catch (const std::exception&) {
    return 0;  // documented: std::invalid_argument naming the problem
  }
  const std::string again = flowtune::db::config_json(config);
  try {
    if (flowtune::db::parse_config_json(again).key != config.key) __builtin_trap();
  } catch (const std::exception&) {
    __builtin_trap();  // a config that was accepted once must read back
  }
  return 0;
}
