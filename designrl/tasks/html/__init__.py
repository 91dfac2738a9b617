"""The html family: screenshot → HTML, scored with Design2Code's metrics."""
