#!/usr/bin/env python3
"""NumPy references for the front-end tests in frontend.mlir.

    frontend.py NAME DIR

Each function below defines, in NumPy, what the function NAME of
frontend.mlir computes: the tensor layout ops (pad, slices, concat,
reshapes), linalg.generic with every kind of indexing map, reductions into
inits that are and are not the identity, named ops, arith on tensors and
masks built from linalg.index. Checked as reference.py checks the examples.
"""

import sys

import numpy as np

import reference


def pad(x):
    return np.pad(x, ((1, 2), (0, 1)), constant_values=7.5)


def insert(x, dest):
    r = dest.copy()
    r[1:3, 2:5] = x
    return r


def insert_reduced(x, dest):
    r = dest.copy()
    r[2, 1:4] = x
    return r


def extract(x):
    return x[1:5:2, 0:6:2], x[2, 1:7:2]


def slices(x):
    return x[:, 2, :], x[1:3, 3:4, 1:7:3], x[2, :, 4][None, :]


def concat(a, b, c):
    return np.concatenate([a, b, c], axis=0)


def reshape(x):
    return x.reshape(6, 4), x.reshape(2, 12), x.reshape(3, 2, 2, 2)


def generic_maps(x, y):
    i, j = np.arange(3)[:, None], np.arange(4)[None, :]
    return ((x * y + (i + j)).T, x.max(axis=1, keepdims=True),
            1 + (x * x).sum(axis=0)[None, :])


def max_into_arg(x, init):
    return np.maximum(init, x.max(axis=1))


def permuted_reduce(x):
    return x.sum(axis=2).T


def split_reduce(x):
    return x.prod(axis=(0, 2))


def accumulate(x, acc, acc2):
    return acc + 2 * x, acc2 - x.T


def conv1d(x, w):
    conv = sum(x[k:k + 8] * w[k] for k in range(3))
    pool = np.maximum(conv[0::2], conv[1::2])
    return conv, pool, np.maximum(np.repeat(pool, 2) - conv, 0)


def bcast_const(x, y):
    return y / x


def matmul_bias(a, b, c):
    return c + a @ b


def bmm_t(a, b):
    return (a @ b).transpose(2, 0, 1)


def named(x, v):
    b = np.broadcast_to(v[None, :, None], (2, 3, 4))
    return x.sum(axis=1), x.transpose(2, 0, 1), b, x - b


def tensor_arith(x, y):
    w = np.array([[1, 2, 3], [4, 5, 6]], dtype=x.dtype)
    less = x < y
    return x * w + 0.5, less, np.exp(np.where(less, x, y))


def masks(x):
    i, j = np.arange(4)[:, None], np.arange(4)[None, :]
    return (np.where(i != j, x, 0), np.where((j <= i + 1) & (i <= j + 1), x, 0),
            np.where(i == j, 100, np.where(2 * i >= j, x, 0)))


REFERENCES = {name: f for name, f in globals().items()
              if callable(f) and getattr(f, "__module__", None) == __name__}

if __name__ == "__main__":
    sys.exit(reference.main(sys.argv, REFERENCES))
