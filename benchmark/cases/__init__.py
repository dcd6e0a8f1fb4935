"""Cases: the document format, the data engine that writes them, verification, releases."""
