//===- ToolOptions.h - What every Deplodock tool's --help shows -*- C++ -*-===//
//
// libLLVM registers hundreds of command-line options of its own (AArch64,
// AMDGPU, IR2Vec, Polly...) before main runs; a tool's --help would list
// them all. prepareToolOptions hides every option registered so far but
// --help, --version, --color and the tool's own categories, so --help shows
// the tool's options and those MLIR's drivers register later (their pass,
// output and diagnostic flags); --help-hidden still lists everything. It
// also makes --version print Deplodock's version.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_SUPPORT_TOOLOPTIONS_H
#define DEPLODOCK_SUPPORT_TOOLOPTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

#include <string>
#include <type_traits>

namespace deplodock {

/// Call first in main, before the drivers register their options; the
/// tool's static options stay visible when they are in a category of
/// `keep`.
void prepareToolOptions(
    llvm::ArrayRef<const llvm::cl::OptionCategory *> keep = {});

/// Appends " (default: TEXT)" to `option`'s help, unless `text` is empty.
void appendDefault(llvm::cl::Option &option, llvm::StringRef text);

namespace detail {
std::string formatDefault(double value);
} // namespace detail

/// Appends " (default: V)" to the help of an option whose default says
/// something: a number, a non-empty string, true. The text comes from the
/// option's own default, so the two cannot drift apart.
template <typename T, typename Parser>
void showDefault(llvm::cl::opt<T, false, Parser> &option) {
  const auto &value = option.getDefault();
  if (!value.hasValue())
    return;
  std::string text;
  if constexpr (std::is_same_v<T, bool>)
    text = value.getValue() ? "true" : "";
  else if constexpr (std::is_floating_point_v<T>)
    text = detail::formatDefault(value.getValue());
  else if constexpr (std::is_arithmetic_v<T>)
    text = std::to_string(value.getValue());
  else
    text = value.getValue();
  appendDefault(option, text);
}

template <typename... Options> void showDefaults(Options &...options) {
  (showDefault(options), ...);
}

/// An error naming the first of `flags` (or an element of `lists`) given an
/// empty value (--flag=""), which would silently mean its default.
llvm::Error
refuseEmpty(llvm::ArrayRef<const llvm::cl::opt<std::string> *> flags,
            llvm::ArrayRef<const llvm::cl::list<std::string> *> lists = {});

} // namespace deplodock

#endif // DEPLODOCK_SUPPORT_TOOLOPTIONS_H
