-- 0004_schedules: placeholder, filled in by its owner.
SELECT 1;
