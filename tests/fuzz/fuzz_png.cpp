// Fuzz harness: kernels/png_io.hpp read_png_gray on arbitrary bytes.
// libpng rejects a critical chunk whose CRC is wrong, which would stop nearly every mutation
// at the first chunk; so for inputs of even size the harness first rewrites the CRC of every
// complete chunk (odd sizes go in as they are, so the CRC paths are fuzzed too).
#include <zlib.h>

#include <cstdint>
#include <exception>
#include <vector>

#include "kernels/png_io.hpp"
#include "tests/fuzz/fuzz_common.hpp"

namespace {

void fix_chunk_crcs(std::vector<std::uint8_t>& b) {
  std::size_t at = 8;  // after the signature
  while (at + 12 <= b.size()) {
    const std::size_t length = (std::size_t(b[at]) << 24) | (std::size_t(b[at + 1]) << 16) |
                               (std::size_t(b[at + 2]) << 8) | std::size_t(b[at + 3]);
    if (length > b.size() - at - 12) return;
    const std::size_t end = at + 8 + length;
    const uLong crc = crc32(0L, b.data() + at + 4, uInt(length + 4));
    for (int k = 0; k < 4; ++k) b[end + std::size_t(k)] = std::uint8_t(crc >> (24 - 8 * k));
    at = end + 4;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = flowtune::fuzz::temp_path("input.png");
  flowtune::fuzz::remove_at_exit(path);
  std::vector<std::uint8_t> bytes(data, data + size);
  if (size % 2 == 0) fix_chunk_crcs(bytes);
  flowtune::fuzz::write_file(path, bytes.data(), bytes.size());
  try {
    // A smaller budget than the default (256 Ki px, 1 MB as floats) keeps each execution fast
    // and ASan's memory low; the budget check is what is under test, not the allocation.
    const flowtune::Image img = flowtune::read_png_gray(path, flowtune::ImageLimits{1u << 18});
    if (img.size() != std::size_t(img.width) * std::size_t(img.height)) __builtin_trap();
  } catch (const std::exception&) {
    // the documented failure: std::runtime_error "<path>: <problem>"
  }
  return 0;
}
