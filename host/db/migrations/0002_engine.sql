-- 0002_engine: placeholder, filled in by its owner.
SELECT 1;
