//===- ToolOptions.cpp - What every Deplodock tool's --help shows ---------===//

#include "Deplodock/Support/ToolOptions.h"
#include "Deplodock/Support/Version.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <deque>

void deplodock::prepareToolOptions(
    llvm::ArrayRef<const llvm::cl::OptionCategory *> keep) {
  // Every option registered before this point is libLLVM's or libMLIR's
  // (static ones, of backends and analyses), or the tool's own, in `keep`;
  // the drivers register theirs later. --help and --version (the generic
  // category) and --color stay.
  llvm::StringRef generic[] = {"help", "help-list", "version", "color"};
  for (auto &[name, option] : llvm::cl::getRegisteredOptions()) {
    if (option->getOptionHiddenFlag() != llvm::cl::NotHidden ||
        llvm::is_contained(generic, name))
      continue;
    if (llvm::none_of(option->Categories,
                      [&](const llvm::cl::OptionCategory *category) {
                        return llvm::is_contained(keep, category);
                      }))
      option->setHiddenFlag(llvm::cl::Hidden);
  }
  llvm::cl::SetVersionPrinter(printVersion);
}

/// Appends " (default: `text`)" to `option`'s help; the help text must
/// outlive the option, so it is kept here.
static void appendDefault(llvm::cl::Option &option, const std::string &text) {
  static std::deque<std::string> helps;
  helps.push_back((option.HelpStr + " (default: " + text + ")").str());
  option.setDescription(helps.back());
}

/// Shows the default of `option` when it says something.
template <typename T> static void showDefaultOf(llvm::cl::opt<T> &option) {
  const llvm::cl::OptionValue<T> &value = option.getDefault();
  if (!value.hasValue())
    return;
  std::string text;
  llvm::raw_string_ostream os(text);
  if constexpr (std::is_same_v<T, bool>)
    os << (value.getValue() ? "true" : "");
  else if constexpr (std::is_floating_point_v<T>)
    os << llvm::format("%g", value.getValue());
  else
    os << value.getValue();
  if (!text.empty())
    appendDefault(option, text);
}

void deplodock::showDefault(llvm::cl::opt<std::string> &option) {
  showDefaultOf(option);
}
void deplodock::showDefault(llvm::cl::opt<bool> &option) {
  showDefaultOf(option);
}
void deplodock::showDefault(llvm::cl::opt<int> &option) {
  showDefaultOf(option);
}
void deplodock::showDefault(llvm::cl::opt<unsigned> &option) {
  showDefaultOf(option);
}
void deplodock::showDefault(llvm::cl::opt<uint64_t> &option) {
  showDefaultOf(option);
}
void deplodock::showDefault(llvm::cl::opt<double> &option) {
  showDefaultOf(option);
}
