// Fuzz harness: boards/board.hpp load_board on an arbitrary board TOML file. load_board takes
// a path and checks that the file stem equals the profile's name, so the input is written to
// <tmp>/fuzz.toml and the seed corpus uses name = "fuzz".
#include <cstdint>
#include <exception>

#include "boards/board.hpp"
#include "tests/fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = flowtune::fuzz::temp_path("fuzz.toml");
  flowtune::fuzz::remove_at_exit(path);
  flowtune::fuzz::write_file(path, data, size);
  try {
    const flowtune::Board board = flowtune::load_board(path);
    (void)flowtune::format_board(board);
  } catch (const std::exception&) {
    // documented: BoardError (a std::runtime_error) naming the file and the key
  }
  return 0;
}
