-- 0005_calls: placeholder, filled in by its owner.
SELECT 1;
