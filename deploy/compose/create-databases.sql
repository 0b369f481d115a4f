-- Runs once, when the compose PostgreSQL volume is new: one database per service.
CREATE DATABASE wp_auth;
CREATE DATABASE wp_org;
CREATE DATABASE wp_wallet;
CREATE DATABASE wp_analytics;
