// Fuzz harness: kernels/flo_io.hpp read_flo on arbitrary bytes. The header is mostly
// fixed-format, so the interesting inputs are sizes and dimensions near the limits.
#include <cstdint>
#include <exception>

#include "kernels/flo_io.hpp"
#include "tests/fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = flowtune::fuzz::temp_path("input.flo");
  flowtune::fuzz::remove_at_exit(path);
  flowtune::fuzz::write_file(path, data, size);
  try {
    const flowtune::FlowField flow = flowtune::read_flo(path);
    // Accepted: the field must be exactly what the file holds.
    if (size != 12 + 8 * flow.size() || flow.u.size() != flow.v.size() ||
        flow.size() != std::size_t(flow.width) * std::size_t(flow.height))
      __builtin_trap();
  } catch (const std::exception&) {
    // the documented failure: std::runtime_error "<path>: <problem>"
  }
  return 0;
}
