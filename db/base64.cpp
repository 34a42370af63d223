#include "db/base64.hpp"

#include <algorithm>
#include <stdexcept>

namespace flowtune::db {

namespace {
constexpr const char* kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}
}  // namespace

std::string base64_encode(const std::vector<std::uint8_t>& bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t v = std::uint32_t(bytes[i]) << 16;
    if (n > 1) v |= std::uint32_t(bytes[i + 1]) << 8;
    if (n > 2) v |= bytes[i + 2];
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += n > 1 ? kAlphabet[(v >> 6) & 63] : '=';
    out += n > 2 ? kAlphabet[v & 63] : '=';
  }
  return out;
}

std::vector<std::uint8_t> base64_decode(const std::string& text) {
  if (text.size() % 4 != 0)
    throw std::invalid_argument("base64: length " + std::to_string(text.size()) +
                                " is not a multiple of 4");
  std::vector<std::uint8_t> out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    const int pad = last ? (text[i + 3] == '=') + (text[i + 2] == '=') : 0;
    if (pad == 1 && text[i + 2] == '=') throw std::invalid_argument("base64: misplaced '='");
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = text[i + std::size_t(k)];
      const int s = k >= 4 - pad ? 0 : sextet(c);
      if (s < 0)
        throw std::invalid_argument(std::string("base64: invalid character '") + c + "' at " +
                                    std::to_string(i + std::size_t(k)));
      v = (v << 6) | std::uint32_t(s);
    }
    out.push_back(std::uint8_t(v >> 16));
    if (pad < 2) out.push_back(std::uint8_t(v >> 8));
    if (pad < 1) out.push_back(std::uint8_t(v));
  }
  return out;
}

}  // namespace flowtune::db
