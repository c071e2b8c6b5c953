"""A PyTorch stand-in for run-sh.mlir: enough for run.sh's environment
check, which is all that test runs before a dry run. Not a GPU."""

__version__ = "0.0-stub"


class version:
    cuda = "0.0"


class _Properties:
    name = "Stub GPU (test)"
    major, minor = 9, 0
    multi_processor_count = 0


class cuda:
    @staticmethod
    def is_available():
        return True

    @staticmethod
    def get_device_properties(index):
        return _Properties()
