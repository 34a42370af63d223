#include "reports/tunables_json.hpp"

#include <cctype>
#include <climits>
#include <stdexcept>

namespace flowtune::reports {

namespace {

class FlatParser {
 public:
  explicit FlatParser(const std::string& text) : text_(text) {}

  std::vector<std::pair<std::string, int>> parse() {
    std::vector<std::pair<std::string, int>> out;
    skip_space();
    if (pos_ == text_.size()) return out;
    expect('{');
    skip_space();
    if (peek() == '}') {
      ++pos_;
    } else {
      while (true) {
        skip_space();
        std::string key = parse_key();
        for (const auto& kv : out) {
          if (kv.first == key) fail("duplicate key \"" + key + "\"");
        }
        skip_space();
        expect(':');
        skip_space();
        out.emplace_back(std::move(key), parse_int());
        skip_space();
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        expect('}');
        break;
      }
    }
    skip_space();
    if (pos_ != text_.size()) fail("trailing text");
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const {
    throw std::invalid_argument("tunables_json '" + text_ + "': " + problem + " at offset " +
                                std::to_string(pos_) +
                                " (expected a flat object of integers, e.g. {\"tile_x\":32})");
  }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  std::string parse_key() {
    expect('"');
    std::string key;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      if (text_[pos_] == '\\') fail("escapes are not supported in keys");
      key += text_[pos_++];
    }
    expect('"');
    if (key.empty()) fail("empty key");
    return key;
  }
  int parse_int() {
    const std::size_t start = pos_;
    if (peek() == '-') ++pos_;
    if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("expected an integer");
    long long value = 0;
    while (std::isdigit(static_cast<unsigned char>(peek()))) {
      value = value * 10 + (text_[pos_++] - '0');
      if (value > static_cast<long long>(INT_MAX) + 1) fail("integer out of range");
    }
    if (peek() == '.' || peek() == 'e' || peek() == 'E') fail("expected an integer");
    if (text_[start] == '-') value = -value;
    if (value < INT_MIN || value > INT_MAX) fail("integer out of range");
    return static_cast<int>(value);
  }

  const std::string& text_;
  std::size_t pos_ = 0;
};

}  // namespace

std::vector<std::pair<std::string, int>> parse_tunables_json(const std::string& text) {
  return FlatParser(text).parse();
}

}  // namespace flowtune::reports
