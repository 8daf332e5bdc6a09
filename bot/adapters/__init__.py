"""The chat adapters: platform events in as ``Incoming``, ``Reply``s out, one package per platform."""
