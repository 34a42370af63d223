// Cache keys, numbers and the linear-time parser of the Kernel Tuner interop (see
// kernel_tuner_json.hpp).
#include "interop/kernel_tuner_json.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <unordered_set>
#include <utility>
#include <vector>

namespace flowtune::interop::detail {

ojson number(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9.0e15)
    return static_cast<std::int64_t>(v);
  return v;
}

std::string key_text(const ojson& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "True" : "False";
  if (value.is_null()) return "None";
  return value.dump();
}

std::string cache_key(const ojson& values_in_order) {
  std::string key;
  bool first = true;
  for (const auto& v : values_in_order) {
    if (!first) key += ",";
    key += key_text(v);
    first = false;
  }
  return key;
}

namespace {

/// A pointer into the parsed text for nlohmann's iterator input adapter that publishes how far
/// the lexer has read (*tracker: one past the last character read), so that the SAX handler
/// knows where a value's text begins and ends.
class TrackedChar {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  TrackedChar(const char* p, const char** tracker) : p_(p), tracker_(tracker) {}
  reference operator*() const { return *p_; }
  TrackedChar& operator++() {
    *tracker_ = ++p_;
    return *this;
  }
  TrackedChar operator++(int) {
    TrackedChar before = *this;
    ++*this;
    return before;
  }
  bool operator==(const TrackedChar& o) const { return p_ == o.p_; }
  bool operator!=(const TrackedChar& o) const { return p_ != o.p_; }

 private:
  const char* p_;
  const char** tracker_;
};

/// SAX handler that builds the document with appends (no key search), keeping a hash set of
/// the keys of each open object to refuse duplicates. With split_entries, the values of the
/// root's "cache" object and "results" array are located (SplitDocument::Entry), not built.
class OrderedBuilder : public nlohmann::json_sax<ojson> {
 public:
  explicit OrderedBuilder(ojson& root, SplitDocument* split = nullptr, const char* text = nullptr,
                          const char* const* read_to = nullptr)
      : root_(root), split_(split), text_(text), read_to_(read_to) {}

  bool null() override { return add(ojson(nullptr)); }
  bool boolean(bool v) override { return add(ojson(v)); }
  bool number_integer(number_integer_t v) override { return add(ojson(v)); }
  bool number_unsigned(number_unsigned_t v) override { return add(ojson(v)); }
  bool number_float(number_float_t v, const string_t&) override { return add(ojson(v)); }
  bool string(string_t& v) override { return skipping_ ? true : add(ojson(std::move(v))); }
  bool binary(binary_t& v) override { return add(ojson::binary(std::move(v))); }
  bool start_object(std::size_t) override {
    if (enter_entry()) return true;
    ojson* o = add_container(ojson::object());
    stack_.push_back(o);
    keys_.emplace_back();
    split_here_.push_back(split_ && stack_.size() == 2 && key_of_child_ == "cache" ? kCache
                                                                                   : kNone);
    return true;
  }
  bool key(string_t& k) override {
    if (skipping_) return true;
    if (!keys_.back().insert(k).second)
      throw std::invalid_argument("duplicate key '" + k + "' in an object");
    if (stack_.size() == 1) key_of_child_ = k;
    key_ = std::move(k);
    return true;
  }
  bool end_object() override { return leave(); }
  bool start_array(std::size_t) override {
    if (enter_entry()) return true;
    stack_.push_back(add_container(ojson::array()));
    keys_.emplace_back();
    split_here_.push_back(split_ && stack_.size() == 2 && key_of_child_ == "results" ? kResults
                                                                                     : kNone);
    return true;
  }
  bool end_array() override { return leave(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    if (const auto* p = dynamic_cast<const ojson::parse_error*>(&e)) throw *p;
    if (const auto* o = dynamic_cast<const ojson::out_of_range*>(&e)) throw *o;
    throw ojson::other_error::create(501, e.what(), nullptr);
  }

 private:
  /// A container opening: inside an entry being located (counted), or an entry of a split
  /// container (its text begins at the '{' or '[' just read).
  bool enter_entry() {
    if (skipping_) {
      ++skipping_;
      return true;
    }
    if (split_here_.empty() || split_here_.back() == kNone) return false;
    SplitDocument::Entry e;
    e.key = std::move(key_);
    e.result = split_here_.back() == kResults;
    e.begin = static_cast<std::size_t>(*read_to_ - text_) - 1;
    split_->entries.push_back(std::move(e));
    skipping_ = 1;
    return true;
  }
  bool leave() {
    if (skipping_) {
      if (--skipping_ == 0)
        split_->entries.back().end = static_cast<std::size_t>(*read_to_ - text_);
      return true;
    }
    stack_.pop_back();
    keys_.pop_back();
    split_here_.pop_back();
    return true;
  }
  bool add(ojson&& v) {
    if (skipping_) return true;
    if (!split_here_.empty() && split_here_.back() != kNone) {
      SplitDocument::Entry e;
      e.key = std::move(key_);
      e.result = split_here_.back() == kResults;
      e.value = std::move(v);
      split_->entries.push_back(std::move(e));
      return true;
    }
    add_container(std::move(v));
    return true;
  }
  ojson* add_container(ojson&& v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    ojson& top = *stack_.back();
    if (top.is_array()) {
      auto& a = top.get_ref<ojson::array_t&>();
      a.push_back(std::move(v));
      return &a.back();
    }
    auto& o = top.get_ref<ojson::object_t&>();
    o.emplace_back(std::move(key_), std::move(v));
    return &o.back().second;
  }

  ojson& root_;
  SplitDocument* split_;
  const char* text_;
  const char* const* read_to_;
  std::vector<ojson*> stack_;
  std::vector<std::unordered_set<std::string>> keys_;
  enum Split : char { kNone, kCache, kResults };
  std::vector<Split> split_here_;  ///< per open container: are its values entries, of which
  std::string key_, key_of_child_;
  int skipping_ = 0;  ///< > 0: inside an entry being located, that many containers deep
};

}  // namespace

ojson parse_ordered(const std::string& text) {
  return parse_ordered(text.data(), text.data() + text.size());
}

ojson parse_ordered(const char* first, const char* last) {
  ojson root;
  OrderedBuilder builder(root);
  ojson::sax_parse(first, last, &builder);
  return root;
}

SplitDocument parse_split(const char* first, const char* last) {
  SplitDocument doc;
  const char* read_to = first;
  OrderedBuilder builder(doc.root, &doc, first, &read_to);
  ojson::sax_parse(TrackedChar(first, &read_to), TrackedChar(last, &read_to), &builder);
  return doc;
}

}  // namespace flowtune::interop::detail
