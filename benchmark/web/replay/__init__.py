"""The replay of a trajectory on the map, run comparison and the city's streets base layer."""
