//===- DTileAttrs.td - Attributes of the tile dialect ------*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DTILE_ATTRS
#define DEPLODOCK_DIALECT_DTILE_ATTRS

include "Deplodock/Dialect/DTile/IR/DTileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributes.td"

def DTile_KnobsAttr : AttrDef<DTile_Dialect, "Knobs"> {
  let mnemonic = "knobs";
  let summary = "the lowering decisions taken for a kernel";
  let description = [{
    The knob values the Tile rules chose for a kernel, by name: integers
    (`BM = 64`), booleans (`tma = true`) and integer lists (`stage = [0, 1]`,
    the staged inputs). Every name is a known knob with a fixed value kind;
    entries print sorted by name, so equal decisions print equally.

    ```mlir
    #dtile.knobs<BK = 32, BM = 64, BN = 64, FM = 4, FN = 4, stage = [0, 1]>
    ```
  }];
  let parameters = (ins "::mlir::DictionaryAttr":$entries);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The knobs of `entries`, which must be (name, value) pairs.
    static KnobsAttr get(::mlir::MLIRContext *context,
                         ::llvm::ArrayRef<::mlir::NamedAttribute> entries);
    /// The integer knob `name`, if set.
    std::optional<int64_t> getInt(::llvm::StringRef name) const;
    /// The boolean knob `name`, if set.
    std::optional<bool> getBool(::llvm::StringRef name) const;
    /// The integer-list knob `name`, if set.
    std::optional<::llvm::ArrayRef<int64_t>>
    getList(::llvm::StringRef name) const;
    /// These knobs with `other`'s entries added (other wins on a clash).
    KnobsAttr merge(KnobsAttr other) const;
    bool empty() const { return getEntries().empty(); }
  }];
}

#endif // DEPLODOCK_DIALECT_DTILE_ATTRS
