//===- PermuteRegisterTile.h - Remaps of register-tile columns --*- C++ -*-===//
//
// Which thread holds which register-tile column: permute_register_tile
// interleaves single columns, vector_reads runs of columns one vector wide.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_PERMUTEREGISTERTILE_H
#define DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_PERMUTEREGISTERTILE_H

#include "Deplodock/Dialect/DTile/IR/DTileOps.h"

#include <optional>

namespace deplodock::dtile {

/// The column threads of a register-tiled kernel: their coordinate, their
/// count and the columns each holds (FN), when register_tile gave a thread
/// several columns. The column axis is the one register_tile named after
/// the block's column tile (`<n>_o` blocks, `<n>_i` threads); FN is
/// register_tile's decision, read through its typed knobs.
struct ColumnThreads {
  mlir::BlockArgument coord;
  int64_t threads;
  int64_t fn;
};
std::optional<ColumnThreads> getRegisterColumnThreads(KernelOp kernel);

/// Deals the register-tile columns to threads in runs of `granule`: column
/// c = n * FN + q * g + r (thread n, run q, r < g) becomes q * g * T + g * n
/// + r in every index of `kernel`, T the column threads. Granule 1
/// interleaves single columns (permute_register_tile); a vector's width
/// keeps each run contiguous (4 x 4 sub-tiles for vector_reads). Every
/// column is still computed once. Fails, changing nothing, when FN is not a
/// multiple of `granule` or some use of the coordinate is not of that form.
mlir::LogicalResult permuteRegisterColumns(KernelOp kernel, int64_t granule);

/// Whether vector_reads would read some slab of `kernel`, as it stands, as
/// vectors (its register columns dealt in runs, or a transposed slab's rows).
bool formsVectorReads(KernelOp kernel);

} // namespace deplodock::dtile

#endif // DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_PERMUTEREGISTERTILE_H
