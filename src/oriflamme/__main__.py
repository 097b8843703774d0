"""``python -m oriflamme``: the same command line as the ``oriflamme`` script."""

from .cli import main

if __name__ == "__main__":
    main()
