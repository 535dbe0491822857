-- How a plant's modules face, both optional: tilt from the horizontal (0-90 degrees) and
-- azimuth clockwise from north (0-360, 180 = south). The clear-sky reference of the plant
-- figures assumes them where they are missing (docs/figures.md).
ALTER TABLE plants ADD COLUMN tilt DOUBLE PRECISION;
ALTER TABLE plants ADD COLUMN azimuth DOUBLE PRECISION;
