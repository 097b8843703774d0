"""The error every storage backend raises, apart from the stores so that the migrations can raise it too."""


class StorageError(Exception):
    """The backend refused a write (e.g. an action index already taken), or the database cannot be used."""


class LeaseLost(StorageError):
    """This process no longer owns the table it tried to write to: another took it over (see .cluster)."""


class StorageConflict(StorageError):
    """A write broke a uniqueness rule (a name already taken): nothing of it was written."""
