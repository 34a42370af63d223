#include "db/connection.hpp"

namespace flowtune::db {

bool Column::isNull() const {
  return impl_->is_null(index_);
}
std::string Column::getString() const {
  return impl_->text(index_);
}
int Column::getInt() const {
  return static_cast<int>(impl_->int64(index_));
}
std::int64_t Column::getInt64() const {
  return impl_->int64(index_);
}
double Column::getDouble() const {
  return impl_->real(index_);
}

Statement::Statement(Connection& connection, const std::string& sql)
    : impl_(connection.prepare(sql)) {}
Statement::~Statement() = default;
void Statement::bind(int index, int value) {
  impl_->bind_int64(index, value);
}
void Statement::bind(int index, std::int64_t value) {
  impl_->bind_int64(index, value);
}
void Statement::bind(int index, double value) {
  impl_->bind_double(index, value);
}
void Statement::bind(int index, const std::string& value) {
  impl_->bind_text(index, value);
}
void Statement::bind_no_copy(int index, const std::string& value) {
  impl_->bind_text_no_copy(index, value);
}
void Statement::bind(int index) {
  impl_->bind_null(index);
}
bool Statement::executeStep() {
  return impl_->step();
}
int Statement::exec() {
  return impl_->exec();
}
void Statement::reset() {
  impl_->reset();
}

}  // namespace flowtune::db
