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

void deplodock::appendDefault(llvm::cl::Option &option, llvm::StringRef text) {
  if (text.empty())
    return;
  // The help text must outlive the option, so it is kept here.
  static std::deque<std::string> helps;
  helps.push_back((option.HelpStr + " (default: " + text + ")").str());
  option.setDescription(helps.back());
}

std::string deplodock::detail::formatDefault(double value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%g", value);
  return text;
}

llvm::Error deplodock::refuseEmpty(
    llvm::ArrayRef<const llvm::cl::opt<std::string> *> flags,
    llvm::ArrayRef<const llvm::cl::list<std::string> *> lists) {
  auto refuse = [](const llvm::cl::Option &flag) {
    return llvm::createStringError("--" + flag.ArgStr +
                                   " needs a value; leave the flag out for "
                                   "its default");
  };
  for (const llvm::cl::opt<std::string> *flag : flags)
    if (flag->getNumOccurrences() && flag->empty())
      return refuse(*flag);
  for (const llvm::cl::list<std::string> *list : lists)
    if (llvm::is_contained(*list, ""))
      return refuse(*list);
  return llvm::Error::success();
}
