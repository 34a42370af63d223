#include "select/multi_board_header.hpp"

#include <cctype>
#include <set>
#include <sstream>
#include <stdexcept>

#include "select/tuned_header.hpp"

namespace flowtune {
namespace {

std::string identifier(const std::string& board) {
  std::string id;
  for (char c : board) id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0]))) id = "b_" + id;
  return id;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

}  // namespace

std::string multi_board_header_text(const std::vector<BoardChoice>& boards,
                                    const Objective& objective) {
  if (boards.empty()) throw std::invalid_argument("multi_board_header_text: no board");
  std::set<std::string> seen;
  for (const BoardChoice& b : boards)
    if (!seen.insert(b.board).second)
      throw std::invalid_argument("multi_board_header_text: board '" + b.board + "' given twice");
  std::vector<TunedHeaderParts> parts;
  std::ostringstream h;
  h << "// Tuned configurations for boards";
  for (const BoardChoice& b : boards)
    h << ' ' << b.board
      << (b.cc_major ? " (sm_" + std::to_string(b.cc_major * 10 + b.cc_minor) + ")"
                     : std::string(" (cpu)"));
  h << ", exported by flowtune (tune export) from its database.\n"
    << "// Objective: " << objective.name << ". Device code: the FT_* macros of the arch being\n"
    << "// compiled (__CUDA_ARCH__). Host code: flowtune::tuned::for_device(major, minor).\n";
  for (const BoardChoice& b : boards) {
    parts.push_back(tuned_header_parts(b.config, b.board, objective));
    h << tuned_config_marker(b.board) << parts.back().config_json << '\n';
  }
  h << "#pragma once\n\n";
  for (std::size_t i = 0; i < boards.size(); ++i)
    h << "namespace flowtune::tuned::" << identifier(boards[i].board) << " {\n"
      << parts[i].constants << "}  // namespace flowtune::tuned::" << identifier(boards[i].board)
      << "\n\n";
  h << "namespace flowtune::tuned {\n\n"
    << "/// One board of this header.\n"
    << "struct BoardConfig {\n  const char* board;\n  int cc_major, cc_minor;  // 0.0: a CPU "
       "board\n  const char* variant;\n  const char* precision;\n  const char* config_json;\n};\n\n"
    << "inline constexpr BoardConfig kBoards[] = {\n";
  for (std::size_t i = 0; i < boards.size(); ++i) {
    const BoardChoice& b = boards[i];
    h << "    {" << quoted(b.board) << ", " << b.cc_major << ", " << b.cc_minor << ", "
      << quoted(b.config.config.variant) << ", " << quoted(b.config.config.precision) << ", "
      << quoted(parts[i].config_json) << "},\n";
  }
  h << "};\n\n"
    << "/// The config of a device of compute capability major.minor (cudaDeviceProp), the first\n"
    << "/// board of that capability; nullptr when no board of this header has it.\n"
    << "inline const BoardConfig* for_device(int major, int minor) {\n"
    << "  for (const BoardConfig& b : kBoards)\n"
    << "    if (b.cc_major == major && b.cc_minor == minor && major > 0) return &b;\n"
    << "  return nullptr;\n}\n\n"
    << "}  // namespace flowtune::tuned\n";
  std::set<int> archs;
  bool open = false;
  for (std::size_t i = 0; i < boards.size(); ++i) {
    const int cc = boards[i].cc_major * 100 + boards[i].cc_minor * 10;
    if (boards[i].cc_major == 0 || !archs.insert(cc).second) continue;
    h << (open ? "#elif" : "\n#if") << " defined(__CUDA_ARCH__) && __CUDA_ARCH__ == " << cc
      << "  // " << boards[i].board << '\n'
      << parts[i].macros;
    open = true;
  }
  if (open) h << "#endif\n";
  return h.str();
}

}  // namespace flowtune
