"""Trips per taxi zone, written in the RAPIDS 24.x style.

Reads pickups with cuDF, assigns each one to a zone with cuSpatial and serves a cross-filtering
dashboard with cuxfilter. Both of those libraries are retired now (cuSpatial after 25.04,
cuxfilter after 26.06), which is what `gpulint examples/` reports here.
"""
import cudf
import cuspatial
import cuxfilter
import geopandas


def load_zones(path):
    zones = geopandas.read_file(path)
    return cuspatial.from_geopandas(zones.geometry)


def assign_zones(trips, zones):
    xy = trips[["pickup_x", "pickup_y"]].interleave_columns()
    points = cuspatial.GeoSeries.from_points_xy(xy)
    inside = cuspatial.point_in_polygon(points, zones)
    trips["zone"] = inside.idxmax(axis=1)
    return trips


def dashboard(trips):
    cux_df = cuxfilter.DataFrame.from_dataframe(trips)
    charts = [
        cuxfilter.charts.bar("zone"),
        cuxfilter.charts.scatter(x="pickup_x", y="pickup_y"),
    ]
    return cux_df.dashboard(charts, title="Trips per zone")


def main():
    trips = cudf.read_parquet("trips.parquet")
    zones = load_zones("zones.geojson")
    trips = assign_zones(trips, zones)
    dashboard(trips).show()


if __name__ == "__main__":
    main()
