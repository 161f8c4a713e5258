import cuspatial
