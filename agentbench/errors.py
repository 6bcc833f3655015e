"""Errors a user can cause or meet, each rendered as one line by the CLI.

    AgentbenchError                 base; `str(err)` is the line shown to the user
    ├── TaskFileError               a task or tool file is malformed (path, field, line)
    ├── ConfigError                 a bad flag, alias, provider, policy or price file
    ├── ServerUnavailable           no server answered where one was expected
    ├── StorageError                the results database cannot be written (disk full, I/O)
    └── BackendError                a model call failed; `kind` classifies it
        ├── RetryableBackendError   429, 5xx, refused connection, stream cut: retried
        └── NotAnLLMServer          something answered, but not an LLM API (HTML, 404)

Model-side mistakes (invalid tool JSON, an unknown tool) are not errors: they are agent behaviour,
recorded on the step and scored.
"""

from __future__ import annotations


class AgentbenchError(Exception):
    """Base class. The message is a complete sentence telling the user what to do."""


class TaskFileError(AgentbenchError):
    """A task or tool-schema file failed to load or validate."""

    def __init__(self, path: str, field: str, message: str, line: int | None = None) -> None:
        self.path = path
        self.field = field
        self.line = line
        where = f"{path}:{line}" if line else path
        what = f"field '{field}': " if field != "-" else ""
        super().__init__(f"{where}: {what}{message}")


class ConfigError(AgentbenchError):
    """A flag, alias, provider, policy or data file is invalid."""


class ServerUnavailable(AgentbenchError):
    """No server answered at the address(es) tried."""


class StorageError(AgentbenchError):
    """The results database could not be written; what was committed before is kept."""


class BackendError(AgentbenchError):
    """A model call failed. `kind` becomes the episode status `backend_error:<kind>`."""

    def __init__(self, kind: str, message: str, *, status_code: int | None = None) -> None:
        self.kind = kind
        self.status_code = status_code
        super().__init__(message)


class RetryableBackendError(BackendError):
    """A transient fault worth retrying (rate limit, 5xx, refused connection, cut stream)."""

    def __init__(
        self,
        kind: str,
        message: str,
        *,
        status_code: int | None = None,
        retry_after_s: float | None = None,
    ) -> None:
        super().__init__(kind, message, status_code=status_code)
        self.retry_after_s = retry_after_s


class NotAnLLMServer(BackendError):
    """The address answered, but not with an OpenAI-compatible or Ollama API."""

    def __init__(self, message: str, *, status_code: int | None = None) -> None:
        super().__init__("not_llm_server", message, status_code=status_code)
