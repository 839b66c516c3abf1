import sys, os
import math
import numpy as np
import cadquery as cq

def create_cad()-> cq.Workplane:
    import sys, os
    import math
    import numpy as np
    import cadquery as cq
    
    def create_cad() -> cq.Workplane:
        height = 0.48649
        radius = 0.75
        cutout_diameter = 0.243243243243244
    
        result = (
            cq.Workplane("XY")
            .cylinder(height, radius)
            .faces(">Z")
            .workplane()
            .hole(cutout_diameter)
        )
        return result
    
    final_result = create_cad()
    return final_result

final_result = create_cad()
