func.func @f() {
  func.bogus
}
