"""Each platform end to end: the real client library against a fake platform server on loopback."""
