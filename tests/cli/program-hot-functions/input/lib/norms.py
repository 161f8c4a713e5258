def overflow(norm):
    return bool(norm.isinf())  # expect: Clipper.step (hot-functions) -> here, with device data
