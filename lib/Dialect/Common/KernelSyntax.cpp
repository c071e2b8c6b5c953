//===- KernelSyntax.cpp - Syntax shared by kernel and loop ops --*- C++ -*-===//

#include "Deplodock/Dialect/Common/KernelSyntax.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

bool deplodock::isIdentifier(StringRef name) {
  if (name.empty() || llvm::isDigit(name.front()))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

ParseResult deplodock::parseBindings(
    OpAsmParser &parser, StringRef keyword,
    SmallVectorImpl<OpAsmParser::Argument> &args,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
    SmallVectorImpl<Type> &types) {
  if (failed(parser.parseOptionalKeyword(keyword)))
    return success();
  return parser.parseCommaSeparatedList(
      OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
        OpAsmParser::Argument arg;
        OpAsmParser::UnresolvedOperand operand;
        if (parser.parseArgument(arg) || parser.parseEqual() ||
            parser.parseOperand(operand) || parser.parseColonType(arg.type))
          return failure();
        args.push_back(arg);
        operands.push_back(operand);
        types.push_back(arg.type);
        return success();
      });
}

void deplodock::printBindings(OpAsmPrinter &p, StringRef keyword,
                              ValueRange args, ValueRange operands) {
  if (operands.empty())
    return;
  p << ' ' << keyword << '(';
  llvm::interleaveComma(llvm::zip(args, operands), p, [&](auto pair) {
    auto [arg, operand] = pair;
    p << arg << " = " << operand << " : " << operand.getType();
  });
  p << ')';
}

LogicalResult deplodock::verifyKernelBuffers(Operation *op, StringRef name,
                                             OperandRange buffers,
                                             unsigned numOutputs) {
  if (!isIdentifier(name))
    return op->emitOpError("name \"")
           << name
           << "\" is not a C identifier; it becomes the CUDA function name";
  if (numOutputs == 0)
    return op->emitOpError("expected at least one output buffer");
  for (auto [i, buffer] : llvm::enumerate(buffers)) {
    auto type = cast<MemRefType>(buffer.getType());
    if (!type.hasStaticShape())
      return op->emitOpError("buffer #")
             << i << " has type " << type << "; buffers need a static shape";
    if (!type.getLayout().isIdentity())
      return op->emitOpError("buffer #") << i << " has type " << type
                                         << "; buffers need an identity layout";
    for (unsigned j = 0; j < i; ++j)
      if (buffers[j] == buffer)
        return op->emitOpError("buffer #")
               << i << " is passed twice (also as buffer #" << j << ")";
  }
  return success();
}

/// The first op that writes `buffer` or a view of it, if any.
static Operation *findWriter(Value buffer) {
  SmallVector<Value> worklist{buffer};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
        if (view.getViewSource() == v)
          llvm::append_range(worklist, user->getResults());
        continue;
      }
      auto effects = dyn_cast<MemoryEffectOpInterface>(user);
      if (effects && effects.getEffectOnValue<MemoryEffects::Write>(v))
        return user;
    }
  }
  return nullptr;
}

LogicalResult deplodock::verifyKernelBody(Operation *op, Block &body,
                                          OperandRange buffers,
                                          unsigned numInputs) {
  if (body.getNumArguments() != buffers.size())
    return op->emitOpError("body takes ")
           << body.getNumArguments() << " arguments but the kernel has "
           << buffers.size() << " buffers";
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(body.getArguments(), buffers))) {
    auto [arg, buffer] = pair;
    if (arg.getType() != buffer.getType())
      return op->emitOpError("body argument #")
             << i << " has type " << arg.getType() << ", expected "
             << buffer.getType();
    if (i >= numInputs)
      continue;
    if (Operation *writer = findWriter(arg)) {
      InFlightDiagnostic diag = writer->emitOpError("writes input #")
                                << i << " of its kernel; inputs are read-only";
      diag.attachNote(op->getLoc()) << "kernel is here";
      return diag;
    }
  }
  return success();
}

void deplodock::nameKernelArgs(Region &region, unsigned numInputs,
                               OpAsmSetValueNameFn setNameFn) {
  if (region.empty())
    return;
  // Number the buffers per group, so `%in1` is the second input.
  for (auto [i, arg] : llvm::enumerate(region.front().getArguments()))
    setNameFn(arg, i < numInputs ? "in" + std::to_string(i)
                                 : "out" + std::to_string(i - numInputs));
}

LogicalResult
deplodock::verifyLoopCarriedValues(Operation *op, Block &body,
                                   OperandRange inits,
                                   std::optional<OperandRange> yielded) {
  if (body.getNumArguments() != inits.size() + 1)
    return op->emitOpError("body takes ")
           << body.getNumArguments() << " arguments but the loop needs "
           << inits.size() + 1 << " (the induction variable and one per init)";
  Value inductionVar = body.getArgument(0);
  if (!inductionVar.getType().isIndex())
    return op->emitOpError("induction variable has type ")
           << inductionVar.getType() << ", expected 'index'";
  auto iterArgs = body.getArguments().drop_front();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(iterArgs, inits))) {
    auto [arg, init] = pair;
    if (arg.getType() != init.getType())
      return op->emitOpError("iter arg #")
             << i << " has type " << arg.getType() << " but its init has type "
             << init.getType();
  }
  if (op->getNumResults() != inits.size())
    return op->emitOpError("expected ")
           << inits.size() << " results, one per init, got "
           << op->getNumResults();
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(op->getResultTypes(), inits))) {
    auto [type, init] = pair;
    if (type != init.getType())
      return op->emitOpError("result #")
             << i << " has type " << type << " but its init has type "
             << init.getType();
  }
  if (!yielded)
    return success();
  if (yielded->size() != inits.size())
    return op->emitOpError("body yields ")
           << yielded->size() << " values but the loop carries "
           << inits.size();
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(yielded->getTypes(), iterArgs))) {
    auto [type, arg] = pair;
    if (type != arg.getType())
      return op->emitOpError("yielded value #")
             << i << " has type " << type << " but iter arg #" << i
             << " has type " << arg.getType();
  }
  return success();
}
