"""The package's exceptions."""


class DeplodockError(RuntimeError):
    """Something Deplodock could not do. `status` is the C runtime's status
    name (DEPLODOCK_ERROR_COMPILE...) when the runtime reported it."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status


class ToolError(DeplodockError):
    """A Deplodock tool failed; the message ends with what it said."""

    def __init__(self, command, returncode, stderr):
        name = command[0].rsplit("/", 1)[-1]
        super().__init__(f"{name} failed (exit {returncode}):\n{stderr.rstrip()}")
        self.command = command
        self.returncode = returncode
        self.stderr = stderr


class UnsupportedError(DeplodockError):
    """A feature this environment lacks (torch, a GPU)."""
