"""Names of the message-bus channels server processes talk on (see :mod:`.cluster`)."""


def table_channel(table_id: str) -> str:
    """A table's channel: its stored actions and its presence, heard by every process holding it."""
    return f"t_{table_id}"


def worker_channel(worker: str) -> str:
    """One server process's channel: messages routed to it (forwarded actions, answers)."""
    return f"w_{worker}"
