//===- KernelSyntax.cpp - Syntax shared by kernel and loop ops --*- C++ -*-===//

#include "Deplodock/Dialect/Common/KernelSyntax.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace deplodock {

/// Parses `keyword(%a = %x : T, ...)`.
static ParseResult
parseBindingList(OpAsmParser &parser, StringRef keyword,
                 SmallVectorImpl<OpAsmParser::Argument> &args,
                 SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
                 SmallVectorImpl<Type> &types) {
  if (parser.parseKeyword(keyword))
    return failure();
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

ParseResult parseKernelBindings(OpAsmParser &parser, OperationState &result,
                                SmallVectorImpl<OpAsmParser::Argument> &args,
                                int32_t segments[2]) {
  SmallVector<OpAsmParser::UnresolvedOperand> ins, outs;
  SmallVector<Type> inTypes, outTypes;
  SMLoc loc = parser.getCurrentLocation();
  if (parseBindingList(parser, "ins", args, ins, inTypes) ||
      parseBindingList(parser, "outs", args, outs, outTypes) ||
      parser.resolveOperands(ins, inTypes, loc, result.operands) ||
      parser.resolveOperands(outs, outTypes, loc, result.operands))
    return failure();
  segments[0] = ins.size();
  segments[1] = outs.size();
  return success();
}

void printKernelBindings(OpAsmPrinter &p, Block &body, ValueRange ins,
                         ValueRange outs) {
  auto printList = [&](StringRef keyword, ValueRange operands,
                       ArrayRef<BlockArgument> args) {
    p << ' ' << keyword << '(';
    llvm::interleaveComma(llvm::zip(args, operands), p, [&](auto pair) {
      auto [arg, operand] = pair;
      p << arg << " = " << operand << " : " << operand.getType();
    });
    p << ')';
  };
  ArrayRef<BlockArgument> args = body.getArguments();
  printList("ins", ins, args.take_front(ins.size()));
  printList("outs", outs, args.drop_front(ins.size()));
}

bool isIdentifier(StringRef name) {
  if (name.empty() || llvm::isDigit(name.front()))
    return false;
  return llvm::all_of(
      name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

LogicalResult verifyKernelBindings(Operation *op, StringRef name, Block &body,
                                   ValueRange ins, ValueRange outs) {
  if (!isIdentifier(name))
    return op->emitOpError("name \"")
           << name << "\" is not a C identifier";
  if (outs.empty())
    return op->emitOpError("expected at least one output buffer");
  SmallVector<Value> operands(ins);
  llvm::append_range(operands, outs);
  if (body.getNumArguments() != operands.size())
    return op->emitOpError("body takes ")
           << body.getNumArguments() << " arguments but the kernel binds "
           << operands.size() << " buffers";
  llvm::SmallPtrSet<Value, 8> seen;
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(operands, body.getArguments()))) {
    auto [operand, arg] = pair;
    if (!seen.insert(operand).second)
      return op->emitOpError("buffer #") << i << " is passed twice";
    if (arg.getType() != operand.getType())
      return op->emitOpError("body argument #")
             << i << " has type " << arg.getType() << ", expected "
             << operand.getType();
    if (!cast<MemRefType>(operand.getType()).getLayout().isIdentity())
      return op->emitOpError("buffer #") << i
                                         << " must have the identity layout";
  }
  return success();
}

ParseResult parseIterArgs(OpAsmParser &parser, OperationState &result,
                          SmallVectorImpl<OpAsmParser::Argument> &args) {
  if (failed(parser.parseOptionalKeyword("iter")))
    return success();
  SmallVector<OpAsmParser::UnresolvedOperand> inits;
  SmallVector<Type> types;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
            OpAsmParser::Argument arg;
            OpAsmParser::UnresolvedOperand init;
            if (parser.parseArgument(arg) || parser.parseEqual() ||
                parser.parseOperand(init) || parser.parseColonType(arg.type))
              return failure();
            args.push_back(arg);
            inits.push_back(init);
            types.push_back(arg.type);
            return success();
          }) ||
      parser.resolveOperands(inits, types, loc, result.operands))
    return failure();
  result.addTypes(types);
  return success();
}

void printIterArgs(OpAsmPrinter &p, ValueRange iterArgs, ValueRange inits) {
  if (iterArgs.empty())
    return;
  p << " iter(";
  llvm::interleaveComma(llvm::zip(iterArgs, inits), p, [&](auto pair) {
    auto [arg, init] = pair;
    p << arg << " = " << init << " : " << init.getType();
  });
  p << ')';
}

} // namespace deplodock
