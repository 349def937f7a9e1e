"""The exceptions the croq package raises.

Every exception derives from :class:`CroqError`, and each also derives from
the built-in exception a caller would expect, so ``except TypeError`` still
catches a wrong argument type.
"""

from __future__ import annotations

import builtins
from typing import Optional, Sequence


class CroqError(Exception):
    """Base class of every exception raised by croq."""


class CompileError(CroqError):
    """A tool of the compile flow failed.

    Attributes:
        tool: the program that failed (``croq-translate``, ``clang-22``, ...).
        command: the full command line.
        returncode: its exit status.
        stderr: what it printed on standard error.
    """

    def __init__(self, message: str, *, tool: str = "",
                 command: Optional[Sequence[str]] = None,
                 returncode: Optional[int] = None, stderr: str = "") -> None:
        super().__init__(message)
        self.tool = tool
        self.command = list(command or [])
        self.returncode = returncode
        self.stderr = stderr


class LoadError(CroqError, OSError):
    """An artifact could not be loaded: a missing file, a library that the
    dynamic loader refuses, a malformed signature, a missing entry point."""

    def __init__(self, message: str) -> None:
        # OSError's constructor reads (errno, strerror) out of two arguments;
        # give it one so that str() is the message.
        super().__init__(message)


class ArgumentError(CroqError, TypeError, ValueError):
    """An argument of a kernel call breaks a rule of its memref type.

    Attributes:
        index: the position of the argument (0-based), or None when the
            error is about the argument list (their count).
        name: its name in the croq source, or None.
        rule: the rule that was broken, in words.
    """

    def __init__(self, index: Optional[int], name: Optional[str],
                 rule: str) -> None:
        self.index = index
        self.name = name
        self.rule = rule
        if index is None:
            super().__init__(rule)
            return
        label = f"argument {index}"
        if name:
            label += f" ('{name}')"
        super().__init__(f"{label}: {rule}")


class RuntimeError(CroqError, builtins.RuntimeError):  # noqa: A001
    """A CUDA call of the croq runtime failed (module load, a launch, a
    staging copy): the entry point returned a non-zero status. The message is
    the runtime's. Errors of the kernel itself surface where the stream is
    waited for (torch's synchronization), not here."""


#: An alias that does not shadow the built-in name.
CroqRuntimeError = RuntimeError
