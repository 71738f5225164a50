# TCG, icount and KVM for the same cells: median CRNG-ready time (log scale:
# -cpu max is ready in milliseconds, no counter takes minutes). KVM cells
# that could not run on this host are marked "not measured", never drawn as
# zero, and the title (prepare.py's accel_title, runlib.accel_title) names
# KVM as compared only where some cell measured it; a median that is a
# lower bound is labelled "still waiting".
load 'plots/style.gp'
dat = datadir.'/accel.dat'
set title accel_title."\n".caption
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set ylabel 'median CRNG ready (from kernel start, guest clock, log)'
set xtics rotate by -30 font ',8'
set logscale y
set yrange [ymin3:ymax3]
eval 'set ytics '.ytics3
set label 2 kvm_note at graph 0.02, graph 0.97 font ',9'
eval 'plot '.accel_series
