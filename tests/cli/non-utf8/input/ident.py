é_var = 1; import cuspatial as ñ
ñ.read_polygon_shapefile("x")
