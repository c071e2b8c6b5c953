//===- StructuralKey.cpp - Keys that name a kernel by its structure -*- C++
//-*-//

#include "Deplodock/Tuner/StructuralKey.h"

#include "Deplodock/Dialect/DLoop/Transforms/Transforms.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/SHA256.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::tuner;

std::string tuner::sha256Hex(StringRef text) {
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

std::string tuner::opKey(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os, OpPrintingFlags().printGenericOpForm().useLocalScope());
  return sha256Hex(text);
}

/// The compute-unit cluster of a scalar op: ops of one cluster schedule the
/// same way, so one tuning result serves them all.
static StringRef clusterOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, StringRef>(op)
      .Case<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::NegFOp,
            arith::AddIOp, arith::SubIOp, arith::MulIOp, math::FmaOp,
            math::AbsFOp, math::AbsIOp>([](auto) { return "fma"; })
      .Case<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
            arith::MinNumFOp, arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp,
            arith::MinUIOp, arith::CmpFOp, arith::CmpIOp, arith::SelectOp>(
          [](auto) { return "cmp"; })
      .Case<arith::DivFOp, arith::RemFOp, arith::DivSIOp, arith::DivUIOp,
            arith::RemSIOp, arith::RemUIOp>([](auto) { return "div"; })
      .Case<math::ExpOp, math::Exp2Op, math::LogOp, math::Log2Op, math::Log1pOp,
            math::SqrtOp, math::RsqrtOp, math::TanhOp, math::ErfOp, math::SinOp,
            math::CosOp, math::PowFOp>([](auto) { return "sfu"; })
      .Default([](Operation *op) { return op->getName().getStringRef(); });
}

/// Sorts each perfectly nested chain of free loops by extent (stable): free
/// loops commute, so the order they were written in does not matter.
static void sortFreeChains(dloop::KernelOp kernel) {
  SmallVector<SmallVector<dloop::ForOp>> chains;
  kernel.walk<WalkOrder::PreOrder>([&](dloop::ForOp loop) {
    // Start a chain at a free loop whose parent is not in one.
    auto parent = loop->getParentOfType<dloop::ForOp>();
    bool continues = parent && !parent.isReduction() &&
                     parent.getBody()->getOperations().size() == 2 &&
                     !loop.isReduction();
    if (loop.isReduction() || continues)
      return;
    SmallVector<dloop::ForOp> chain{loop};
    while (true) {
      Block *body = chain.back().getBody();
      auto next = body->getOperations().size() == 2
                      ? dyn_cast<dloop::ForOp>(body->front())
                      : dloop::ForOp();
      if (!next || next.isReduction())
        break;
      chain.push_back(next);
    }
    if (chain.size() > 1)
      chains.push_back(chain);
  });
  for (SmallVector<dloop::ForOp> &chain : chains) {
    SmallVector<unsigned> order(chain.size());
    for (unsigned i = 0; i < order.size(); ++i)
      order[i] = i;
    llvm::sort(order, [&](unsigned a, unsigned b) {
      return std::make_pair(chain[a].getExtent(), a) <
             std::make_pair(chain[b].getExtent(), b);
    });
    // Loop k now iterates what loop order[k] did.
    SmallVector<SmallVector<OpOperand *>> uses(chain.size());
    SmallVector<int64_t> extents;
    for (auto [i, loop] : llvm::enumerate(chain)) {
      extents.push_back(loop.getExtent());
      for (OpOperand &use : loop.getInductionVar().getUses())
        uses[i].push_back(&use);
    }
    for (auto [k, loop] : llvm::enumerate(chain)) {
      loop.setExtent(extents[order[k]]);
      for (OpOperand *use : uses[order[k]])
        use->set(loop.getInductionVar());
    }
  }
}

/// Reorders the kernel's inputs and outputs by first use.
static void sortBuffersByFirstUse(dloop::KernelOp kernel) {
  SmallVector<Value> firstUse;
  kernel.walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (isa<BlockArgument>(operand) &&
          cast<BlockArgument>(operand).getOwner() == kernel.getBody() &&
          !llvm::is_contained(firstUse, operand))
        firstUse.push_back(operand);
  });
  auto rank = [&](BlockArgument arg) {
    auto it = llvm::find(firstUse, Value(arg));
    return it == firstUse.end() ? firstUse.size() : it - firstUse.begin();
  };
  unsigned numInputs = kernel.getInputs().size();
  for (auto [begin, end] :
       {std::make_pair(0u, numInputs),
        std::make_pair(numInputs, kernel.getBody()->getNumArguments())}) {
    SmallVector<BlockArgument> args;
    for (unsigned i = begin; i < end; ++i)
      args.push_back(kernel.getBody()->getArgument(i));
    SmallVector<BlockArgument> sorted = args;
    llvm::sort(sorted, [&](BlockArgument a, BlockArgument b) {
      return std::make_pair(rank(a), a.getArgNumber()) <
             std::make_pair(rank(b), b.getArgNumber());
    });
    // Swap types and uses into the sorted positions.
    SmallVector<SmallVector<OpOperand *>> uses;
    SmallVector<Type> types;
    for (BlockArgument arg : sorted) {
      types.push_back(arg.getType());
      uses.emplace_back();
      for (OpOperand &use : arg.getUses())
        uses.back().push_back(&use);
    }
    for (auto [i, arg] : llvm::enumerate(args)) {
      arg.setType(types[i]);
      for (OpOperand *use : uses[i])
        use->set(arg);
    }
  }
}

namespace {

/// Prints a kernel with values numbered in definition order.
class CanonicalPrinter {
public:
  /// `anyExtent` prints loop extents and buffer sizes as `?`.
  CanonicalPrinter(llvm::raw_ostream &os, bool anyExtent)
      : os(os), anyExtent(anyExtent) {}

  void printKernel(dloop::KernelOp kernel) {
    os << "kernel";
    for (auto [i, arg] : llvm::enumerate(kernel.getBody()->getArguments())) {
      names[arg] = "b" + std::to_string(i);
      os << (i < kernel.getInputs().size() ? " in " : " out ")
         << squeezed(arg.getType());
    }
    os << "\n";
    printBlock(*kernel.getBody(), 1);
  }

private:
  /// `type` without its size-1 axes.
  std::string squeezed(Type type) {
    auto memref = cast<MemRefType>(type);
    SmallVector<int64_t> shape;
    for (int64_t s : memref.getShape())
      if (s != 1)
        shape.push_back(anyExtent ? ShapedType::kDynamic : s);
    std::string text;
    llvm::raw_string_ostream(text)
        << MemRefType::get(shape, memref.getElementType());
    return text;
  }

  std::string name(Value v) {
    auto it = names.find(v);
    if (it != names.end())
      return it->second;
    return "?";
  }

  std::string define(Value v) {
    std::string n = "v" + std::to_string(next++);
    names[v] = n;
    return n;
  }

  void indent(unsigned depth) { os.indent(2 * depth); }

  /// An access `buf[map](operands)`: axes of size 1 dropped, operands in
  /// value order so equal accesses print equally.
  void printAccess(Value memref, AffineMap map, ValueRange indices) {
    auto type = cast<MemRefType>(memref.getType());
    SmallVector<std::pair<std::string, unsigned>> ordered;
    for (auto [i, v] : llvm::enumerate(indices))
      ordered.push_back({name(v), static_cast<unsigned>(i)});
    llvm::sort(ordered, [](auto &a, auto &b) {
      return std::make_tuple(a.first.size(), a.first, a.second) <
             std::make_tuple(b.first.size(), b.first, b.second);
    });
    SmallVector<AffineExpr> replacement(indices.size());
    for (auto [pos, entry] : llvm::enumerate(ordered))
      replacement[entry.second] = getAffineDimExpr(pos, map.getContext());
    SmallVector<AffineExpr> symbols;
    for (unsigned s = 0; s < map.getNumSymbols(); ++s)
      symbols.push_back(replacement[map.getNumDims() + s]);
    SmallVector<AffineExpr> results;
    for (auto [d, expr] : llvm::enumerate(map.getResults()))
      if (type.getDimSize(d) != 1)
        results.push_back(simplifyAffineExpr(
            expr.replaceDimsAndSymbols(
                ArrayRef<AffineExpr>(replacement).take_front(map.getNumDims()),
                symbols),
            indices.size(), 0));
    os << name(memref) << "[";
    AffineMap::get(indices.size(), 0, results, map.getContext()).print(os);
    os << "](";
    llvm::interleaveComma(ordered, os, [&](auto &e) { os << e.first; });
    os << ")";
  }

  void printBlock(Block &block, unsigned depth) {
    for (Operation &op : block)
      printOp(op, depth);
  }

  void printOp(Operation &op, unsigned depth) {
    indent(depth);
    if (auto loop = dyn_cast<dloop::ForOp>(op)) {
      SmallVector<std::string> inits;
      for (Value v : loop.getInitArgs())
        inits.push_back(name(v));
      os << "for " << define(loop.getInductionVar()) << " < ";
      if (anyExtent)
        os << "?";
      else
        os << loop.getExtent();
      os << (loop.isReduction() ? " reduce" : " free");
      if (!inits.empty()) {
        os << " iter(";
        for (auto [i, arg] : llvm::enumerate(loop.getIterArgs()))
          os << (i ? ", " : "") << define(arg) << " = " << inits[i];
        os << ")";
      }
      os << " {\n";
      printBlock(*loop.getBody(), depth + 1);
      indent(depth);
      os << "}";
      for (Value r : loop.getResults())
        os << " " << define(r);
      os << "\n";
      return;
    }
    if (auto load = dyn_cast<dloop::LoadOp>(op)) {
      os << define(load.getResult()) << " = load ";
      printAccess(load.getMemRef(), load.getMap(), load.getIndices());
      os << " : " << load.getType() << "\n";
      return;
    }
    if (auto store = dyn_cast<dloop::StoreOp>(op)) {
      os << "store";
      if (std::optional<ReduceKind> kind = store.getReduceKind())
        os << "." << stringifyReduceKind(*kind);
      os << " " << name(store.getValue()) << " -> ";
      printAccess(store.getMemRef(), store.getMap(), store.getIndices());
      os << "\n";
      return;
    }
    if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
      os << define(apply.getResult()) << " = apply ";
      apply.getAffineMap().print(os);
      os << "(";
      llvm::interleaveComma(apply.getOperands(), os,
                            [&](Value v) { os << name(v); });
      os << ")\n";
      return;
    }
    if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      os << define(cst.getResult()) << " = const " << cst.getValue() << "\n";
      return;
    }
    // Any other op: its cluster, operands (sorted when commutative), the
    // attributes that matter (predicates) and its types.
    SmallVector<std::string> operands;
    for (Value v : op.getOperands())
      operands.push_back(name(v));
    if (op.hasTrait<OpTrait::IsCommutative>())
      llvm::sort(operands, [](const std::string &a, const std::string &b) {
        return std::make_pair(a.size(), a) < std::make_pair(b.size(), b);
      });
    SmallVector<std::string> results;
    for (Value r : op.getResults())
      results.push_back(define(r));
    if (!results.empty())
      os << llvm::join(results, ", ") << " = ";
    os << clusterOf(&op) << "(" << llvm::join(operands, ", ") << ")";
    if (auto cmp = dyn_cast<arith::CmpFOp>(op))
      os << " " << arith::stringifyCmpFPredicate(cmp.getPredicate());
    if (auto cmp = dyn_cast<arith::CmpIOp>(op))
      os << " " << arith::stringifyCmpIPredicate(cmp.getPredicate());
    for (Type t : op.getResultTypes())
      os << " : " << t;
    os << "\n";
    for (Region &region : op.getRegions()) {
      indent(depth);
      os << "{\n";
      for (Block &block : region)
        printBlock(block, depth + 1);
      indent(depth);
      os << "}\n";
    }
  }

  llvm::raw_ostream &os;
  bool anyExtent;
  llvm::DenseMap<Value, std::string> names;
  unsigned next = 0;
};

} // namespace

std::string tuner::canonicalPrint(dloop::KernelOp kernel, bool anyExtent) {
  // Canonicalise a private copy.
  OpBuilder b(kernel.getContext());
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(b, kernel.getLoc());
  b.setInsertionPointToEnd(scratch->getBody());
  auto copy = cast<dloop::KernelOp>(b.clone(*kernel));
  IRRewriter rewriter(kernel.getContext());
  SmallVector<dloop::ForOp> unit;
  copy.walk([&](dloop::ForOp loop) {
    if (loop.getExtent() == 1)
      unit.push_back(loop);
  });
  for (dloop::ForOp loop : unit)
    (void)loop.promoteIfSingleIteration(rewriter);
  // Fold the index 0 of dropped loops into the accesses.
  RewritePatternSet patterns(kernel.getContext());
  dloop::LoadOp::getCanonicalizationPatterns(patterns, kernel.getContext());
  dloop::StoreOp::getCanonicalizationPatterns(patterns, kernel.getContext());
  (void)applyPatternsGreedily(copy, std::move(patterns));
  sortFreeChains(copy);
  sortBuffersByFirstUse(copy);
  std::string text;
  llvm::raw_string_ostream os(text);
  CanonicalPrinter(os, anyExtent).printKernel(copy);
  return text;
}

std::string tuner::structuralKey(dloop::KernelOp kernel) {
  return sha256Hex(canonicalPrint(kernel));
}

std::string tuner::structuralFamilyKey(dloop::KernelOp kernel) {
  return sha256Hex(canonicalPrint(kernel, /*anyExtent=*/true));
}
