//! The query pipeline: routing, processing modes, payload assembly, history
//! reduction, citations and the extractive answerer (all sans-IO).
