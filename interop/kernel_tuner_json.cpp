// Cache keys, numbers and the linear-time parser of the Kernel Tuner interop (see
// kernel_tuner_json.hpp).
#include "interop/kernel_tuner_json.hpp"

#include <cmath>
#include <cstdint>
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

/// SAX handler that builds the document with appends (no key search), keeping a hash set of
/// the keys of each open object to refuse duplicates.
class OrderedBuilder : public nlohmann::json_sax<ojson> {
 public:
  explicit OrderedBuilder(ojson& root) : root_(root) {}

  bool null() override { return add(ojson(nullptr)); }
  bool boolean(bool v) override { return add(ojson(v)); }
  bool number_integer(number_integer_t v) override { return add(ojson(v)); }
  bool number_unsigned(number_unsigned_t v) override { return add(ojson(v)); }
  bool number_float(number_float_t v, const string_t&) override { return add(ojson(v)); }
  bool string(string_t& v) override { return add(ojson(std::move(v))); }
  bool binary(binary_t& v) override { return add(ojson::binary(std::move(v))); }
  bool start_object(std::size_t) override {
    ojson* o = add_container(ojson::object());
    stack_.push_back(o);
    keys_.emplace_back();
    return true;
  }
  bool key(string_t& k) override {
    if (!keys_.back().insert(k).second)
      throw std::invalid_argument("duplicate key '" + k + "' in an object");
    key_ = std::move(k);
    return true;
  }
  bool end_object() override {
    stack_.pop_back();
    keys_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override {
    stack_.push_back(add_container(ojson::array()));
    keys_.emplace_back();
    return true;
  }
  bool end_array() override {
    stack_.pop_back();
    keys_.pop_back();
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    if (const auto* p = dynamic_cast<const ojson::parse_error*>(&e)) throw *p;
    if (const auto* o = dynamic_cast<const ojson::out_of_range*>(&e)) throw *o;
    throw ojson::other_error::create(501, e.what(), nullptr);
  }

 private:
  bool add(ojson&& v) {
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
  std::vector<ojson*> stack_;
  std::vector<std::unordered_set<std::string>> keys_;
  std::string key_;
};

}  // namespace

ojson parse_ordered(const std::string& text) {
  ojson root;
  OrderedBuilder builder(root);
  ojson::sax_parse(text, &builder);
  return root;
}

}  // namespace flowtune::interop::detail
