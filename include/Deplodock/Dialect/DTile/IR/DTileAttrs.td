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
    the staged inputs). Every name is a knob Rules.td declares, with its
    value kind and range; entries print sorted by name, so equal decisions
    print equally. The body of the attribute is also the one textual syntax
    of knobs elsewhere: the `knobs=` pass option, tool flags and the tuner's
    output (`BK=32,stage=[0,1]`, spaces optional).

    ```mlir
    #dtile.knobs<BK = 32, BM = 64, BN = 64, FM = 4, FN = 4, stage = [0, 1]>
    ```
  }];
  let parameters = (ins "::mlir::DictionaryAttr":$entries);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    // One typed getter per knob of Rules.td: getBK(), getStage(), ...
    #define GET_KNOB_ACCESSOR_DECLS
    #include "Deplodock/Dialect/DTile/IR/DTileKnobs.h.inc"

    /// The knobs of `entries`, which must be (name, value) pairs.
    static KnobsAttr get(::mlir::MLIRContext *context,
                         ::llvm::ArrayRef<::mlir::NamedAttribute> entries);
    /// The rule knobs `T` (ChunkMatmulKKnobs...) these knobs set, if any.
    template <typename T>
    std::optional<T> get() const { return T::fromAttr(*this); }
    /// The integer knob `name`, if set.
    std::optional<int64_t> getInt(::llvm::StringRef name) const;
    /// The boolean knob `name`, if set.
    std::optional<bool> getBool(::llvm::StringRef name) const;
    /// The integer-list knob `name`, if set.
    std::optional<::llvm::ArrayRef<int64_t>>
    getList(::llvm::StringRef name) const;
    /// These knobs with `other`'s entries added (other wins on a clash).
    KnobsAttr merge(KnobsAttr other) const;
    /// Prints the entries as between the brackets of the attribute;
    /// `compact` drops the blanks (`BK=32,stage=[0,1]`), the form of the
    /// `knobs=` option.
    void printBody(::llvm::raw_ostream &os, bool compact) const;
    bool empty() const { return getEntries().empty(); }
  }];
}

#endif // DEPLODOCK_DIALECT_DTILE_ATTRS
